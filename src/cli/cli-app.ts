import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGatewayApp, type GatewayApp } from '../app.factory.js';
import { loadConfig } from '../core/config/config.loader.js';
import { createLogger } from '../core/logging/logger.js';

/** The application on an in-memory embedded database with default config: enough to read routes and metadata. */
export async function createOfflineApp(overrides: Record<string, unknown> = {}): Promise<GatewayApp> {
  // A throw-away app dir and key: nothing the CLI does may write into the working tree or need real secrets.
  const config = loadConfig({
    env: {},
    overrides: {
      app_dir: mkdtempSync(join(tmpdir(), 'gw-cli-')),
      encryption_key: randomBytes(32).toString('base64'),
      log_level: 'warn',
      // Nothing is served: no dashboard build needed (nor a warning when there is none).
      ui: { enabled: false },
      ...overrides,
    },
  });
  return createGatewayApp({
    config,
    logger: createLogger('warn'),
    pgliteDataDir: config.database_url ? undefined : null,
  });
}
