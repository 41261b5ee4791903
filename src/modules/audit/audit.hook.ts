import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatPermission } from '../../core/auth/permissions.js';
import { actorOf } from '../../core/auth/principal.js';
import type { RouteAccessRegistry } from '../../core/auth/route-access.registry.js';
import type { AuditService } from './audit.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What a handler adds to its audit row (the keys a config change set); never a secret or a body. */
    auditMetadata?: Record<string, unknown>;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Management routes: `/api/*`, `/metrics`, `/ws`. */
export function isManagementRoute(route: string): boolean {
  return route.startsWith('/api/') || route === '/metrics' || route === '/ws' || route.startsWith('/ws/');
}

function firstParam(request: FastifyRequest): string | null {
  const params = request.params;
  if (!params || typeof params !== 'object') return null;
  const first = Object.values(params as Record<string, unknown>)[0];
  return typeof first === 'string' && first !== '' ? first.slice(0, 512) : null;
}

/**
 * Records every management write from Fastify's onResponse hook, so requests the guard refused (401/403) and those
 * a handler failed are recorded as well. The write is queued and never delays the response.
 */
export function registerAuditHook(fastify: FastifyInstance, audit: AuditService, registry: RouteAccessRegistry): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    if (route && WRITE_METHODS.has(request.method) && isManagementRoute(route)) {
      const access = request.routeAccess ?? registry.get(request.method, route);
      const principal = request.principal;
      audit.record({
        actor: actorOf(principal),
        auth_method: principal?.authMethod ?? null,
        permission:
          access?.kind === 'management' && access.operation
            ? formatPermission({ resource: access.resource, operation: access.operation })
            : null,
        method: request.method,
        route,
        path: (request.url.split('?')[0] ?? request.url).slice(0, 2048),
        target_id: firstParam(request),
        status_code: reply.statusCode,
        client_address: request.ip ?? null,
        metadata: request.auditMetadata ?? null,
      });
    }
    done();
  });
}
