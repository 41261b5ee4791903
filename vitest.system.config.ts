import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// The system suites (issue 18): real gateway processes started as a user starts them, real peers, faults. One file at
// a time: each suite loads the machine on its own and its figures mean nothing beside another suite's load (CI runs
// the two run modes side by side to save time: take figures from a run alone).
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    include: ['test/system/**/*.system-spec.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['reflect-metadata'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    reporters: ['default'],
  },
});
