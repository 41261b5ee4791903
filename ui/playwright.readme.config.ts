import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * `npm run screenshots:readme`: the README's two pictures of the dashboard (overview, request logs), written into
 * docs/images/ from a real gateway seeded through its API (ui/readme/readme-screenshots.ts). Same browser and
 * options as the browser tests.
 */
export default defineConfig({
  ...base,
  testDir: join(import.meta.dirname, 'readme'),
  testMatch: '*.ts',
  reporter: [['list']],
});
