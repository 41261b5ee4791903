import swc from 'unplugin-swc';
import { configDefaults, defineConfig } from 'vitest/config';

// SWC compiles the sources so decorator metadata (Nest DI, class-validator, TypeORM) is emitted.
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    include: ['test/**/*.e2e-spec.ts', 'test/**/*.spec.ts'],
    // The unit specs (`*.spec.ts`: no gateway, no database, no Redis) run on the embedded default only: on Postgres +
    // Redis (CI's second run of `npm test`) they would repeat the same code on the same inputs.
    exclude: process.env.DATABASE_URL ? [...configDefaults.exclude, 'test/**/*.spec.ts'] : configDefaults.exclude,
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['reflect-metadata'],
    // Many suites start the built gateway as a process, on the embedded default on a copy of the migrated data dir
    // (seconds on a quiet 2-core machine, 25-30 s with the other worker's suites alongside).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each worker imports the gateway (Nest, TypeORM, the SDKs) once for all its files instead of once per file: about
    // 4 s of import per file otherwise. Suites share no state but what they start (apps, peers) and close themselves.
    isolate: false,
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ['default'],
  },
});
