import 'reflect-metadata';
import { ConfigError, loadConfig } from './core/config/config.loader.js';
import { createLogger, stdoutLogDestination } from './core/logging/logger.js';
import { EncryptionKeyError } from './core/secrets/encryption-key.js';
import { prepareSetupToken, SetupTokenError, setupTokenNotice } from './core/secrets/setup-token.js';
import { APP_VERSION } from './core/version.js';

/** A configuration problem found after loading (key files in the app dir): exit 2 with one `config:` line each. */
function exitOnConfigProblem(err: unknown): void {
  const lines =
    err instanceof ConfigError
      ? err.problems
      : err instanceof EncryptionKeyError || err instanceof SetupTokenError
        ? [err.message]
        : undefined;
  if (!lines) return;
  for (const line of lines) process.stderr.write(`config: ${line}\n`);
  process.exit(2);
}

async function bootstrap(): Promise<void> {
  let config;
  let setupToken;
  try {
    config = loadConfig({ argv: process.argv.slice(2), env: process.env });
    setupToken = config.role === 'worker' ? undefined : prepareSetupToken(config);
  } catch (err) {
    exitOnConfigProblem(err);
    throw err;
  }
  const logger = createLogger(config.log_level, stdoutLogDestination(config.log_max_buffered_bytes));
  // Loaded only once the configuration holds: a configuration problem exits in a fraction of a second instead of
  // after importing Nest, TypeORM, BullMQ and every module (about 2.5 s of CPU).
  const [{ createGatewayApp }, { installShutdown }, { describeDatabase }] = await Promise.all([
    import('./app.factory.js'),
    import('./core/shutdown.js'),
    import('./core/persistence/data-source.factory.js'),
  ]);
  const started = performance.now();
  let created;
  try {
    created = await createGatewayApp({ config, logger });
  } catch (err) {
    exitOnConfigProblem(err);
    throw err;
  }
  const { app } = created;
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
  // The bound port, not the configured one: `--port 0` lets the OS pick.
  const bound = app.getHttpServer().address();
  const port = typeof bound === 'object' && bound ? bound.port : config.port;
  const address = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger.info(
    {
      address,
      port,
      edition: config.edition,
      database,
      queue,
      role: config.role,
      version: APP_VERSION,
      startup_ms: Math.round(performance.now() - started),
    },
    `gateway listening on ${address} (edition ${config.edition}, database ${database}, queue ${queue})`,
  );
  const notice = setupToken && setupTokenNotice(setupToken);
  if (notice) logger[notice.level]({ setup_lock: setupToken?.source, path: setupToken?.path }, notice.msg);
}

bootstrap().catch((err: unknown) => {
  process.stderr.write(`fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
