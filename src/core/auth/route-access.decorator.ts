import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiQuery, ApiSecurity } from '@nestjs/swagger';
import { routeConfig } from '../http/route-config.js';
import { formatPermission, type Operation, type Resource } from './permissions.js';

/** Keys of the declarations inside Fastify's route `config`, so hooks and the route table see them per route. */
export const ROUTE_ACCESS_CONFIG_KEY = 'gatewayRouteAccess';
export const ENTERPRISE_ONLY = 'gatewayEnterpriseOnly';
export const ACCEPTS_TICKET = 'gatewayAcceptsTicket';

/**
 * How a route is reached. Every route carries exactly one declaration; the route-table test fails on any route
 * without one.
 * - `public`: no credential (health, version, login, ...).
 * - `management`: management credential; in the enterprise edition also the permission.
 * - `virtual-key`: a virtual key (data-plane routes and the quota route).
 * - `route-credential`: a credential the route defines itself, checked by the named `RouteCredentialChecks` entry.
 */
export type RouteAccess =
  | { kind: 'public' }
  | { kind: 'management'; resource: Resource; operation: Operation | null }
  | ({ kind: 'virtual-key' } & VirtualKeyOptions)
  | { kind: 'route-credential'; check: string };

/** How a virtual-key route takes a request without a virtual key (every refusal is decided before the body is read). */
export interface VirtualKeyOptions {
  /**
   * Without a virtual key the request goes on when `inference.require_virtual_key` is false (else 401), so the
   * handler may see no principal.
   */
  optional?: boolean;
  /** Also a provider key passed through (`inference.allow_direct_keys`): the inference routes. */
  directKeys?: boolean;
  /**
   * A query parameter that may carry the key instead (`?key=` of the Gemini API): read as `header`, then taken out of
   * the query so no later reader (routing rules, logs) sees it. A key in a header wins.
   */
  queryKey?: { param: string; header: string };
}

/**
 * Stores the declaration in the Fastify route config (the route gate, the guard, the route-access registry, the
 * audit hook). On a class it applies to every method that has no declaration of its own.
 */
const declareAccess = (access: RouteAccess) => routeConfig(ROUTE_ACCESS_CONFIG_KEY, access);

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
 * is required (401 without one); see `VirtualKeyOptions` for routes that take some requests without one.
 */
export function VirtualKeyAuth(options: VirtualKeyOptions = {}): MethodDecorator & ClassDecorator {
  return applyDecorators(
    declareAccess({ kind: 'virtual-key', ...options }),
    ApiSecurity('BearerAuth'),
    ApiSecurity('ApiKeyAuth'),
  );
}

/**
 * A route whose caller presents a credential of the route's own (an upstream agent's push-callback token, the setup
 * token): the module registers the check under `check` in `RouteCredentialChecks`, and the route gate runs it before
 * the body is read. `security` names the OpenAPI security schemes that describe the credential, if any.
 */
export function RouteCredential(check: string, ...security: string[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    declareAccess({ kind: 'route-credential', check }),
    ...(security.length ? security.map((name) => ApiSecurity(name)) : [ApiSecurity({})]),
  );
}

/**
 * An enterprise-only operation: in the `oss` edition it answers 404 `enterprise_only` (after authentication, so the
 * setup lock still hides it). Documented with `x-enterprise: true`.
 */
export function EnterpriseOnly(): MethodDecorator & ClassDecorator {
  return applyDecorators(routeConfig(ENTERPRISE_ONLY, true), ApiExtension('x-enterprise', true));
}

/**
 * A management route that also takes a one-use ticket (`?ticket=`, from `POST /api/session/ws-ticket`) in place of
 * the caller's credentials: the live channel, which browsers open without custom headers. The ticket stands for the
 * principal that asked for it, so the route's permission is checked against that principal as usual.
 */
export function AcceptsTicket(): MethodDecorator {
  return applyDecorators(
    routeConfig(ACCEPTS_TICKET, true),
    ApiQuery({
      name: 'ticket',
      required: false,
      type: String,
      description: 'A one-use ticket from POST /api/session/ws-ticket (30 s), instead of credentials',
    }),
  );
}
