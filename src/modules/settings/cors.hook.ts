import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../../core/config/gateway-config.js';

const CORS_PATH = /^\/(api|v1)(\/|\?|$)/;
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/** Response headers a browser script may read beyond the CORS-safelisted ones (a log list's capped count, too). */
const EXPOSED_HEADERS = 'x-request-id, x-gateway-total-count-capped';
/** How long a browser may cache a preflight answer (seconds). */
const PREFLIGHT_MAX_AGE = '600';

/**
 * CORS for `/api/*` and `/v1/*`, reading `http.cors_allowed_origins` on every request (it changes at run time through
 * PUT /api/config). An allowed origin is echoed with credentials allowed; `*` allows any origin without credentials
 * (so a site a user visits cannot act with their dashboard session). An empty list, or an origin not on it: no CORS
 * header at all, and a preflight goes on to the router (404). A preflight of an allowed origin is answered here (204),
 * before routing and authentication, as browsers send it without credentials. Headers set here ride along on
 * hijacked replies (SSE) too, which copy the reply's headers.
 */
export function registerCorsHook(fastify: FastifyInstance, config: GatewayConfig): void {
  // A callback hook, not an async one: every request passes here, and an empty list must cost one length check.
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const allowed = config.http.cors_allowed_origins;
    if (allowed.length === 0) return done();
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || !CORS_PATH.test(request.url)) return done();
    const exact = allowed.some((a) => a.toLowerCase() === origin.toLowerCase());
    if (!exact && !allowed.includes('*')) return done();
    void reply.header('vary', 'Origin');
    void reply.header('access-control-allow-origin', exact ? origin : '*');
    if (exact) void reply.header('access-control-allow-credentials', 'true');
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      void reply.header('access-control-allow-methods', ALLOWED_METHODS);
      const asked = request.headers['access-control-request-headers'];
      if (typeof asked === 'string' && asked !== '') void reply.header('access-control-allow-headers', asked);
      void reply.header('access-control-max-age', PREFLIGHT_MAX_AGE);
      // Answered here: the chain stops (no done()), so no route, guard or handler runs.
      void reply.code(204).send();
      return;
    }
    void reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    done();
  });
}
