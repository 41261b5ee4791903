import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import { formatPermission, type Operation, type Resource } from './permissions.js';

export const ROUTE_ACCESS = 'gateway:route-access';

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
  | { kind: 'virtual-key' };

/** A route anyone may call. */
export function Public(): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(ROUTE_ACCESS, { kind: 'public' } satisfies RouteAccess), ApiSecurity({}));
}

/** A management route needing `resource:operation` (enforced in the enterprise edition). */
export function Permission(resource: Resource, operation: Operation): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ROUTE_ACCESS, { kind: 'management', resource, operation } satisfies RouteAccess),
    ApiExtension('x-permission', formatPermission({ resource, operation })),
    ApiSecurity('BasicAuth'),
    ApiSecurity('ManagementBearerAuth'),
    ApiSecurity('SetupToken'),
  );
}

/** A management route any authenticated management caller may use (for example reading one's own permissions). */
export function Authenticated(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ROUTE_ACCESS, { kind: 'management', resource: 'Dashboard', operation: null } satisfies RouteAccess),
    ApiSecurity('BasicAuth'),
    ApiSecurity('ManagementBearerAuth'),
    ApiSecurity('SetupToken'),
  );
}

/** A route authenticated by a virtual key (`Authorization: Bearer`, `x-api-key` or `x-gateway-vk`). */
export function VirtualKeyAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ROUTE_ACCESS, { kind: 'virtual-key' } satisfies RouteAccess),
    ApiSecurity('BearerAuth'),
    ApiSecurity('ApiKeyAuth'),
  );
}
