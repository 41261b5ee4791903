import { Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
import { routeConfigOf } from '../http/route-config.js';
import { LOGGER } from '../logging/logging.module.js';
import { buildAbility, type GatewayAbility } from './ability.factory.js';
import { DataPlaneAuthenticator } from './data-plane-authenticator.js';
import { formatPermission, type Operation, type Resource } from './permissions.js';
import type { Principal } from './principal.js';
import { RequestAuthenticator } from './request-authenticator.service.js';
import { RouteCredentialChecks } from './route-credential-checks.js';
import {
  ACCEPTS_TICKET,
  ENTERPRISE_ONLY,
  ROUTE_ACCESS_CONFIG_KEY,
  type RouteAccess,
} from './route-access.decorator.js';
import { isPending } from '../async/maybe-promise.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The route's declaration, as the gate read it (the audit hook reads it too). */
    routeAccess?: RouteAccess;
    /** The management principal's CASL ability, built once per request (services may check records with it). */
    ability?: GatewayAbility;
    /** Set once the gate has authorized the request (before its body was read). */
    gated?: boolean;
  }
}

/** What a route declares about its access and its errors (its Fastify route config). */
export interface RouteDeclarations {
  access: RouteAccess | undefined;
  errorFields: ErrorFieldsResolver | undefined;
  nativeError: NativeErrorRenderer | undefined;
  enterpriseOnly: boolean;
  acceptsTicket: boolean;
}

const declarationsByRoute = new WeakMap<object, RouteDeclarations>();

/** The matched route's declarations, read once per route (its config object is the route's for its lifetime). */
export function declarationsOf(request: FastifyRequest): RouteDeclarations {
  const config = request.routeOptions.config as object;
  let found = declarationsByRoute.get(config);
  if (!found) {
    found = {
      access: routeConfigOf<RouteAccess>(request, ROUTE_ACCESS_CONFIG_KEY),
      errorFields: routeConfigOf<ErrorFieldsResolver>(request, ERROR_FIELDS),
      nativeError: routeConfigOf<NativeErrorRenderer>(request, NATIVE_ERRORS),
      enterpriseOnly: routeConfigOf<boolean>(request, ENTERPRISE_ONLY) ?? false,
      acceptsTicket: routeConfigOf<boolean>(request, ACCEPTS_TICKET) ?? false,
    };
    declarationsByRoute.set(config, found);
  }
  return found;
}

/**
 * Authenticates every request by its route's declaration and, in the enterprise edition, checks the declared
 * permission with the principal's CASL ability. It runs in a Fastify `preParsing` hook (`registerRouteGate`): a
 * missing or wrong credential is refused before a byte of the body is read, a 25 MB upload included. The global guard
 * only finishes what needs the parsed body (error fields read from it) and refuses a route that declares nothing.
 */
@Injectable()
export class RouteGate {
  constructor(
    private readonly config: GatewayConfig,
    private readonly authenticator: RequestAuthenticator,
    private readonly dataPlane: DataPlaneAuthenticator,
    private readonly routeCredentials: RouteCredentialChecks,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Synchronous where it can be (public routes, a virtual key found in memory): no promise on the hot path. */
  authorize(request: FastifyRequest, declared: RouteDeclarations): void | Promise<void> {
    const { access, errorFields, nativeError } = declared;
    if (nativeError) request.nativeError = nativeError;
    if (errorFields) addErrorFields(request, errorFields(request));
    if (!access) {
      // A programming error (the route-table test fails on it): refuse rather than serve an unguarded route.
      this.logger.error(
        { method: request.method, route: request.routeOptions.url },
        'route has no access declaration (@Public, @Permission, @Authenticated, @VirtualKeyAuth or @RouteCredential); refusing',
      );
      throw GatewayException.forbidden('permission_denied', 'This route declares no access rule');
    }
    request.routeAccess = access;
    request.gated = true;
    switch (access.kind) {
      case 'public':
        return;
      case 'virtual-key': {
        if (access.queryKey) takeQueryKey(request, access.queryKey);
        return this.dataPlane.decide(request, access);
      }
      case 'management':
        return this.authorizeManagement(request, access, declared);
      case 'route-credential':
        return this.routeCredentials.run(access.check, request);
    }
  }

  private async authorizeManagement(
    request: FastifyRequest,
    access: Extract<RouteAccess, { kind: 'management' }>,
    declared: RouteDeclarations,
  ): Promise<void> {
    const principal = declared.acceptsTicket
      ? await this.authenticator.authenticateManagementOrTicket(request)
      : await this.authenticator.authenticateManagement(request);
    request.principal = principal;
    request.ability = buildAbility(principal);
    if (this.config.edition === 'oss' && declared.enterpriseOnly) {
      throw new GatewayException(404, 'enterprise_only', 'This operation is available in the enterprise edition only');
    }
    if (this.config.edition === 'enterprise' && access.operation !== null) {
      this.checkPermission(principal, request.ability, access.resource, access.operation);
    }
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

/** `?key=` read as its header (unless a header already carries one), then removed from the query. */
function takeQueryKey(request: FastifyRequest, from: { param: string; header: string }): void {
  const query = request.query as Record<string, unknown> | undefined;
  const value = query?.[from.param];
  if (value === undefined) return;
  delete query![from.param];
  if (typeof value === 'string' && request.headers[from.header] === undefined) request.headers[from.header] = value;
}

/**
 * Runs the gate in `preParsing`, the last hook before Fastify reads the body: every declared route refuses a missing
 * or wrong credential before any byte of its body is read or parsed. Routes that declare nothing (no match, the
 * OpenAPI document) pass here; the guard refuses a Nest route without a declaration.
 */
export function registerRouteGate(fastify: FastifyInstance, gate: RouteGate): void {
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    const declared = declarationsOf(request);
    if (!declared.access) return done(null, payload);
    const refuse = (err: unknown) => {
      // Node would read and discard the rest of the body to keep the connection: a refused upload ends it instead.
      if (hasBody(request)) void reply.header('connection', 'close');
      done(err as Error);
    };
    let outcome: void | Promise<void>;
    try {
      outcome = gate.authorize(request, declared);
    } catch (err) {
      return refuse(err);
    }
    if (isPending(outcome)) outcome.then(() => done(null, payload), refuse);
    else done(null, payload);
  });
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}
