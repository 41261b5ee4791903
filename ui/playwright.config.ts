import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * The dashboard in Debian's Chromium against the built gateway (docs/dashboard.md, "Tests"). Never a downloaded
 * browser: `PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1` at install, and the system's binary here. Each spec file starts the
 * gateways it needs (ui/e2e/support/gateway.ts), so files run one after another on this 2-core machine.
 */
export const RESULTS = join(import.meta.dirname, 'test-results');

export default defineConfig({
  testDir: join(import.meta.dirname, 'e2e'),
  outputDir: join(RESULTS, 'artifacts'),
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: join(RESULTS, 'report.json') }]],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'Europe/Berlin',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // No traffic beyond the loopback gateway: the machine's network is closed, and a browser's own calls home
      // would only fail (and count as failed requests).
      args: [
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
        '--disable-gpu',
      ],
    },
  },
  globalSetup: join(import.meta.dirname, 'e2e', 'support', 'global-setup.ts'),
  projects: [{ name: 'chromium' }],
});
