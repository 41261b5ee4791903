import type { INestApplication } from '@nestjs/common';
import type { Logger } from 'pino';

const DRAIN_TIMEOUT_MS = 25_000;

/**
 * SIGTERM/SIGINT: stop accepting, let in-flight requests and jobs finish (Nest's close runs every module's
 * shutdown hooks: workers drain, pools close), then exit 0. A second signal or the drain timeout forces exit 1.
 */
export function installShutdown(app: INestApplication, logger: Logger): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal, exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: draining requests and jobs');
    const timer = setTimeout(() => {
      logger.error({ timeout_ms: DRAIN_TIMEOUT_MS }, 'drain timed out, exiting');
      process.exit(1);
    }, DRAIN_TIMEOUT_MS);
    timer.unref();
    app.close().then(
      () => {
        logger.info('shutdown complete');
        logger.flush?.();
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
