import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { GatewayConfig } from '../config/gateway-config.js';
import {
  addErrorFields,
  ERROR_FIELDS,
  NATIVE_ERRORS,
  type ErrorFieldsResolver,
  type NativeErrorRenderer,
} from '../errors/error-context.js';
import { GatewayException } from '../errors/gateway.exception.js';
import { LOGGER } from '../logging/logging.module.js';
import { buildAbility, type GatewayAbility } from './ability.factory.js';
import { formatPermission, type Operation, type Resource } from './permissions.js';
import type { Principal } from './principal.js';
import { DataPlaneAuthenticator } from './data-plane-authenticator.js';
import { RequestAuthenticator } from './request-authenticator.service.js';
import { ACCEPTS_TICKET, ENTERPRISE_ONLY, ROUTE_ACCESS, type RouteAccess } from './route-access.decorator.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The route's declaration, as the guard read it (the audit hook reads it too). */
    routeAccess?: RouteAccess;
    /** The management principal's CASL ability, built once per request (services may check records with it). */
    ability?: GatewayAbility;
  }
}

/**
 * The one global guard: authenticates every request by its route's declaration and, in the enterprise edition,
 * checks the declared permission with the principal's CASL ability.
 */
/** What the guard reads of a route's decorators, once per handler (not per request). */
interface RouteDeclarations {
  access: RouteAccess | undefined;
  errorFields: ErrorFieldsResolver | undefined;
  nativeError: NativeErrorRenderer | undefined;
  enterpriseOnly: boolean;
  acceptsTicket: boolean;
}

@Injectable()
export class GatewayAuthGuard implements CanActivate {
  private readonly declarations = new WeakMap<object, RouteDeclarations>();

  constructor(
    private readonly reflector: Reflector,
    private readonly config: GatewayConfig,
    private readonly authenticator: RequestAuthenticator,
    private readonly dataPlane: DataPlaneAuthenticator,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  private declarationsOf(context: ExecutionContext): RouteDeclarations {
    const handler = context.getHandler();
    let found = this.declarations.get(handler);
    if (!found) {
      const targets = [handler, context.getClass()];
      found = {
        access: this.reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, targets),
        errorFields: this.reflector.getAllAndOverride<ErrorFieldsResolver | undefined>(ERROR_FIELDS, targets),
        nativeError: this.reflector.getAllAndOverride<NativeErrorRenderer | undefined>(NATIVE_ERRORS, targets),
        enterpriseOnly: this.reflector.getAllAndOverride<boolean | undefined>(ENTERPRISE_ONLY, targets) ?? false,
        acceptsTicket: this.reflector.getAllAndOverride<boolean | undefined>(ACCEPTS_TICKET, targets) ?? false,
      };
      this.declarations.set(handler, found);
    }
    return found;
  }

  /** Synchronous where it can be (public routes, a virtual key found in memory): no promise on the hot path. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const { access, errorFields, nativeError, enterpriseOnly, acceptsTicket } = this.declarationsOf(context);
    if (nativeError) request.nativeError = nativeError;
    if (errorFields) addErrorFields(request, errorFields(request));
    if (!access) {
      // A programming error (the route-table test fails on it): refuse rather than serve an unguarded route.
      this.logger.error(
        { method: request.method, route: request.routeOptions.url, handler: context.getHandler().name },
        'route has no access declaration (@Public, @Permission, @Authenticated or @VirtualKeyAuth); refusing',
      );
      throw GatewayException.forbidden('permission_denied', 'This route declares no access rule');
    }
    request.routeAccess = access;
    switch (access.kind) {
      case 'public':
        return true;
      case 'virtual-key': {
        const principal = this.dataPlane.authenticate(request, access.optional ?? false);
        if (!(principal instanceof Promise)) {
          if (principal) request.principal = principal;
          return true;
        }
        return principal.then((found) => {
          if (found) request.principal = found;
          return true;
        });
      }
      case 'management':
        return this.authorizeManagement(request, access, enterpriseOnly, acceptsTicket);
    }
  }

  private async authorizeManagement(
    request: FastifyRequest,
    access: Extract<RouteAccess, { kind: 'management' }>,
    enterpriseOnly: boolean,
    acceptsTicket: boolean,
  ): Promise<boolean> {
    const principal = acceptsTicket
      ? await this.authenticator.authenticateManagementOrTicket(request)
      : await this.authenticator.authenticateManagement(request);
    request.principal = principal;
    request.ability = buildAbility(principal);
    if (this.config.edition === 'oss' && enterpriseOnly) {
      throw new GatewayException(404, 'enterprise_only', 'This operation is available in the enterprise edition only');
    }
    if (this.config.edition === 'enterprise' && access.operation !== null) {
      this.checkPermission(principal, request.ability, access.resource, access.operation);
    }
    return true;
  }

  private checkPermission(
    principal: Principal,
    ability: GatewayAbility,
    resource: Resource,
    operation: Operation,
  ): void {
    // The local admin (admin password, or any caller while dashboard auth is off) bypasses permission checks.
    if (principal.permissions === 'all') return;
    if (ability.can(operation, resource)) return;
    const permission = formatPermission({ resource, operation });
    throw GatewayException.forbidden('permission_denied', `Missing permission ${permission}`);
  }
}
