import { defineConfig } from 'vitest/config';

// The dashboard's pure helpers (formatters, URL state, constraints, the live-row filter): no browser, no gateway.
export default defineConfig({
  root: import.meta.dirname,
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    reporters: ['default'],
  },
});
