import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { MetricsService } from '../metrics/metrics.service.js';
import { sendDeprecationHeaders } from './deprecation.js';
import { clip } from './echo.js';

declare module 'fastify' {
  interface FastifyRequest {
    startedAt?: number;
    /** Fields the access-log line adds (a relayed stream's event count, an inference request's key and model). */
    logFields?: Record<string, unknown>;
  }
}

/** The access line keeps more of the path than an error message does (ids in it help), but not all 16 KiB. */
const ACCESS_LOG_URL_CHARS = 1024;

/**
 * Request id echo, deprecation headers of deprecated routes, one structured access-log line per request, and request
 * metrics by route pattern.
 */
export function registerHttpHooks(fastify: FastifyInstance, logger: Logger, metrics: MetricsService): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    request.startedAt = performance.now();
    void reply.header('x-request-id', request.id);
    sendDeprecationHeaders(request, reply);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const seconds = (performance.now() - (request.startedAt ?? performance.now())) / 1000;
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, seconds);
    logger.info(
      {
        req_id: request.id,
        method: request.method,
        route,
        url: clip(request.url.split('?')[0] ?? '', ACCESS_LOG_URL_CHARS),
        status: reply.statusCode,
        duration_ms: Math.round(seconds * 100000) / 100,
        remote: request.ip,
        ...request.logFields,
      },
      'request completed',
    );
    done();
  });
}
