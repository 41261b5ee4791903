import { applyDecorators, SetMetadata } from '@nestjs/common';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import { ApiExtension, ApiQuery, ApiSecurity } from '@nestjs/swagger';
import { formatPermission, type Operation, type Resource } from './permissions.js';

export const ROUTE_ACCESS = 'gateway:route-access';
export const ENTERPRISE_ONLY = 'gateway:enterprise-only';
export const ACCEPTS_TICKET = 'gateway:accepts-ticket';

/** Key of the declaration inside Fastify's route `config`, so hooks and the route table see it per route. */
export const ROUTE_ACCESS_CONFIG_KEY = 'gatewayRouteAccess';

/**
 * How a route is reached. Every route carries exactly one declaration; the route-table test fails on any route
 * without one.
 * - `public`: no credential (health, version, login, ...).
 * - `management`: management credential; in the enterprise edition also the permission.
 * - `virtual-key`: a virtual key (data-plane routes and the quota route).
 */
export type RouteAccess =
  | { kind: 'public' }
  | { kind: 'management'; resource: Resource; operation: Operation | null }
  | { kind: 'virtual-key'; optional?: boolean };

function mergeRouteConfig(handler: object, access: RouteAccess): void {
  const existing = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as Record<string, unknown>;
  Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, [ROUTE_ACCESS_CONFIG_KEY]: access }, handler);
}

/**
 * Stores the declaration for Nest's Reflector (the guard) and in the Fastify route config (the route-access
 * registry, the audit hook). On a class it applies to every method that has no declaration of its own.
 */
function declareAccess(access: RouteAccess): MethodDecorator & ClassDecorator {
  return ((target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      const handler = descriptor.value as object;
      Reflect.defineMetadata(ROUTE_ACCESS, access, handler);
      mergeRouteConfig(handler, access);
      return descriptor;
    }
    Reflect.defineMetadata(ROUTE_ACCESS, access, target);
    const proto = (target as { prototype?: Record<string, unknown> }).prototype ?? {};
    for (const name of Object.getOwnPropertyNames(proto)) {
      const method = proto[name];
      if (name === 'constructor' || typeof method !== 'function') continue;
      if (!Reflect.hasOwnMetadata(ROUTE_ACCESS, method)) mergeRouteConfig(method, access);
    }
    return target;
  }) as MethodDecorator & ClassDecorator;
}

/** A route anyone may call. */
export function Public(): MethodDecorator & ClassDecorator {
  return applyDecorators(declareAccess({ kind: 'public' }), ApiSecurity({}));
}

/** A management route needing `resource:operation` (enforced in the enterprise edition). */
export function Permission(resource: Resource, operation: Operation): MethodDecorator & ClassDecorator {
  return applyDecorators(
    declareAccess({ kind: 'management', resource, operation }),
    ApiExtension('x-permission', formatPermission({ resource, operation })),
    ApiSecurity('BasicAuth'),
    ApiSecurity('ManagementBearerAuth'),
    ApiSecurity('SetupToken'),
  );
}

/** A management route any authenticated management caller may use (for example reading one's own permissions). */
export function Authenticated(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    declareAccess({ kind: 'management', resource: 'Dashboard', operation: null }),
    ApiExtension('x-authenticated', true),
    ApiSecurity('BasicAuth'),
    ApiSecurity('ManagementBearerAuth'),
    ApiSecurity('SetupToken'),
  );
}

/**
 * A route authenticated by a virtual key (`Authorization: Bearer`, `x-api-key` or `x-gateway-vk`). By default the key
 * is required (401 without one); `optional: true` verifies a presented key but lets key-less requests reach the
 * handler with no principal (for example inference with a provider key passed through).
 */
export function VirtualKeyAuth(options: { optional?: boolean } = {}): MethodDecorator & ClassDecorator {
  return applyDecorators(
    declareAccess(options.optional ? { kind: 'virtual-key', optional: true } : { kind: 'virtual-key' }),
    ApiSecurity('BearerAuth'),
    ApiSecurity('ApiKeyAuth'),
  );
}

/**
 * An enterprise-only operation: in the `oss` edition it answers 404 `enterprise_only` (after authentication, so the
 * setup lock still hides it). Documented with `x-enterprise: true`.
 */
export function EnterpriseOnly(): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(ENTERPRISE_ONLY, true), ApiExtension('x-enterprise', true));
}

/**
 * A management route that also takes a one-use ticket (`?ticket=`, from `POST /api/session/ws-ticket`) in place of
 * the caller's credentials: the live channel, which browsers open without custom headers. The ticket stands for the
 * principal that asked for it, so the route's permission is checked against that principal as usual.
 */
export function AcceptsTicket(): MethodDecorator {
  return applyDecorators(
    SetMetadata(ACCEPTS_TICKET, true),
    ApiQuery({
      name: 'ticket',
      required: false,
      type: String,
      description: 'A one-use ticket from POST /api/session/ws-ticket (30 s), instead of credentials',
    }),
  );
}
