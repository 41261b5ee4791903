import 'reflect-metadata';
import { createGatewayApp, type GatewayApp } from '../app.factory.js';
import { loadConfig } from '../core/config/config.loader.js';
import { createLogger } from '../core/logging/logger.js';

/** The application on an in-memory embedded database with default config: enough to read routes and metadata. */
export async function createOfflineApp(): Promise<GatewayApp> {
  const config = loadConfig({ env: {}, overrides: { app_dir: '.', log_level: 'warn' } });
  return createGatewayApp({ config, logger: createLogger('warn'), pgliteDataDir: null });
}
