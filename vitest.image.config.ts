import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// The image suites (`npm run test:image`, issue 46): the image built with podman and run as a user runs it, on the
// embedded default and as two gateways and a worker on the host's Postgres and Redis. The two files run side by side:
// each mostly waits on containers starting. Skipped, and saying so, where podman is not installed.
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    include: ['test/image/**/*.image-spec.ts'],
    globalSetup: ['test/image/global-setup.ts'],
    setupFiles: ['reflect-metadata'],
    // Above the 300 s a container may take to become healthy (test/image/podman.ts, START_PERIOD_MS).
    testTimeout: 360_000,
    hookTimeout: 360_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ['default'],
  },
});
