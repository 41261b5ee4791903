import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { drainGateOf } from './http/drain-gate.js';
import { flushLogs } from './logging/logger.js';

const DRAIN_TIMEOUT_MS = 25_000;
/** The last log lines get this long to reach a slow reader; a reader that never reads must not hold the exit. */
const LOG_FLUSH_TIMEOUT_MS = 2_000;

/**
 * SIGTERM/SIGINT: new requests get 503 `service_unavailable` while the in-flight ones finish (drain-gate.ts), then
 * Nest's close runs every module's shutdown hooks (workers drain, pools close) and the process exits 0. A second
 * signal or the drain timeout exits 1.
 *
 * The handlers stay installed (`process.on`, not `once`): with `once` the second signal finds no handler and the
 * default action kills the process by signal (status 143) instead of the documented exit 1.
 */
export function installShutdown(app: INestApplication, logger: Logger): void {
  let stopping = false;
  const exit = (code: number) => {
    void flushLogs(logger, LOG_FLUSH_TIMEOUT_MS).finally(() => process.exit(code));
  };
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal, exiting now');
      exit(1);
      return;
    }
    stopping = true;
    const gate = drainGateOf(app.getHttpAdapter().getInstance() as FastifyInstance);
    logger.info(
      { signal, in_flight_requests: gate?.inFlightRequests ?? 0 },
      'shutting down: draining requests and jobs',
    );
    const timer = setTimeout(() => {
      logger.error({ timeout_ms: DRAIN_TIMEOUT_MS, in_flight_requests: gate?.inFlightRequests }, 'drain timed out');
      exit(1);
    }, DRAIN_TIMEOUT_MS);
    timer.unref();
    (gate?.drain() ?? Promise.resolve())
      .then(() => app.close())
      .then(
        () => {
          logger.info('shutdown complete');
          exit(0);
        },
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          exit(1);
        },
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
