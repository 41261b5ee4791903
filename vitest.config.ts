import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// SWC compiles the sources so decorator metadata (Nest DI, class-validator, TypeORM) is emitted.
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    include: ['test/**/*.e2e-spec.ts', 'test/**/*.spec.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['reflect-metadata'],
    // Many suites start the built gateway as a process; on the embedded default each start creates a PGlite database
    // (about 11 s on a quiet 2-core machine, 25-30 s with the other worker's suites alongside).
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
