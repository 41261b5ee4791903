import 'reflect-metadata';
import { createGatewayApp } from './app.factory.js';
import { ConfigError, loadConfig } from './core/config/config.loader.js';
import { describeDatabase } from './core/persistence/data-source.factory.js';
import { createLogger } from './core/logging/logger.js';
import { installShutdown } from './core/shutdown.js';
import { APP_VERSION } from './core/version.js';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadConfig({ argv: process.argv.slice(2), env: process.env });
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of err.problems) process.stderr.write(`config: ${line}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.log_level);
  const started = performance.now();
  const { app } = await createGatewayApp({ config, logger });
  installShutdown(app, logger);

  const database = describeDatabase(config).description;
  const queue = config.redis_url ? 'bullmq' : 'in-process';
  if (config.role === 'worker') {
    logger.info(
      { role: config.role, edition: config.edition, database, queue, version: APP_VERSION },
      'gateway worker started',
    );
    return;
  }
  await app.listen({ host: config.host, port: config.port });
  const address = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  logger.info(
    {
      address,
      edition: config.edition,
      database,
      queue,
      role: config.role,
      version: APP_VERSION,
      startup_ms: Math.round(performance.now() - started),
    },
    `gateway listening on ${address} (edition ${config.edition}, database ${database}, queue ${queue})`,
  );
}

bootstrap().catch((err: unknown) => {
  process.stderr.write(`fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
