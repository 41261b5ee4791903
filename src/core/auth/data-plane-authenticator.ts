import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config/gateway-config.js';
import { GatewayException } from '../errors/gateway.exception.js';
import { headerValue } from '../http/request-header.js';
import { AUTHORIZATION_HEADER, DATA_PLANE_CREDENTIAL_SOURCES, JOB_TICKET_HEADER } from './credential-headers.js';
import { passThroughCredential, readCredentials, VIRTUAL_KEY_PREFIX } from './credentials.util.js';
import { AuthPorts } from './auth-ports.js';
import { ANONYMOUS_CREDENTIAL, VIRTUAL_KEY_CREDENTIAL, type DataPlaneCredential } from './data-plane-credential.js';
import { JobTickets } from './job-tickets.js';
import type { AuthenticatedVirtualKey, Principal } from './principal.js';
import type { VirtualKeyOptions } from './route-access.decorator.js';
import { isPending, whenReady } from '../async/maybe-promise.js';

const NO_PERMISSIONS: ReadonlySet<string> = new Set();

function principalOf(virtualKey: AuthenticatedVirtualKey): Principal {
  return {
    kind: 'virtual_key',
    authMethod: 'virtual_key',
    id: virtualKey.id,
    name: virtualKey.name,
    permissions: NO_PERMISSIONS,
    virtualKey,
  };
}

function bearerOf(request: FastifyRequest): string | undefined {
  const authorization = headerValue(request, AUTHORIZATION_HEADER);
  if (!authorization || authorization.length < 8 || authorization.slice(0, 7).toLowerCase() !== 'bearer ') return;
  return authorization.slice(7).trim() || undefined;
}

/** Where a virtual key may come, in the order of `DATA_PLANE_CREDENTIAL_SOURCES` (`authorization` as a Bearer). */
const CREDENTIAL_READERS: ReadonlyArray<(request: FastifyRequest) => string | undefined> =
  DATA_PLANE_CREDENTIAL_SOURCES.map((name) =>
    name === AUTHORIZATION_HEADER ? bearerOf : (request: FastifyRequest) => headerValue(request, name),
  );

/**
 * The one authenticator of the data plane (inference, A2A, MCP, the quota route) and the only place that decides a
 * data-plane credential: reads the virtual key once (`x-gateway-vk`, then `x-api-key`, then `Authorization: Bearer`,
 * then the native `x-goog-api-key` and `api-key`; the route gate has already moved a declared `?key=` into its
 * header) and resolves it from the identity provider's in-memory key snapshot, invalidated on change on every
 * replica. No passport layers and no database on this path: one hash and one map lookup. Without a virtual key it
 * decides, by the route's declaration and the config, whether a provider key passes through or the request runs
 * anonymously. The decision lands on the request (`request.principal`, `request.credential`); nothing downstream
 * reads a credential header again.
 */
@Injectable()
export class DataPlaneAuthenticator {
  constructor(
    private readonly config: GatewayConfig,
    private readonly ports: AuthPorts,
    private readonly tickets: JobTickets,
  ) {}

  /**
   * Decides the request's credential and sets `request.principal` (a virtual key) and `request.credential`.
   * Synchronous when the key is in memory (the common case), a promise only when it had to be loaded.
   */
  decide(request: FastifyRequest, options: VirtualKeyOptions): void | Promise<void> {
    const principal = this.authenticate(request, options.optional ?? false);
    if (!isPending(principal)) return this.settle(request, principal, options);
    return principal.then((found) => this.settle(request, found, options));
  }

  private settle(request: FastifyRequest, principal: Principal | null, options: VirtualKeyOptions): void {
    if (principal) {
      request.principal = principal;
      request.credential = VIRTUAL_KEY_CREDENTIAL;
    } else {
      request.credential = this.keyless(request, options);
    }
  }

  /**
   * A request without a virtual key on a route that may take one (`optional`): a provider key passed through where
   * the route takes direct keys and `inference.allow_direct_keys` is on; anything with `inference.require_virtual_key`
   * off; else a 401. An Authorization scheme other than Bearer and Basic is always a 401. Management credentials are
   * never data-plane credentials.
   */
  private keyless(request: FastifyRequest, options: VirtualKeyOptions): DataPlaneCredential {
    const presented = readCredentials(request);
    if (presented.malformedAuthorization) {
      // SigV4 (`AWS4-HMAC-SHA256 …`) and other schemes carry nothing the gateway could check.
      throw GatewayException.unauthorized(
        'invalid_credentials',
        'This Authorization scheme is not accepted: send the virtual key as a bearer token (Authorization: Bearer <virtual key>)',
      );
    }
    const direct = passThroughCredential(presented);
    if (direct !== undefined && options.directKeys && this.config.inference.allow_direct_keys) {
      return { kind: 'provider_key', value: direct };
    }
    if (!this.config.inference.require_virtual_key) return ANONYMOUS_CREDENTIAL;
    if (presented.bearer === undefined && presented.apiKeyHeader === undefined && !presented.basic) {
      throw GatewayException.unauthorized(
        'missing_credentials',
        'A virtual key is required (Authorization: Bearer, x-api-key or x-gateway-vk)',
      );
    }
    throw GatewayException.unauthorized(
      'invalid_credentials',
      options.directKeys
        ? 'Inference takes a virtual key; this credential is not one (management credentials are never accepted here)'
        : 'This route takes a virtual key; this credential is not one',
    );
  }

  /**
   * The caller's principal; null when `optional` and no gateway key (`sk-gw-…`) was presented. Synchronous when the
   * key is in memory (the common case), a promise only when it had to be loaded.
   */
  private authenticate(request: FastifyRequest, optional: boolean): Principal | null | Promise<Principal | null> {
    const ticket = request.headers[JOB_TICKET_HEADER];
    if (ticket !== undefined) return this.fromTicket(request, ticket, optional);
    // Read in order and only as far as the first usable one: the common case (a bearer key) reads three headers.
    // Where the key is optional, only `sk-gw-` values are ours: anything else (a provider key passed through) is the
    // handler's to judge.
    let value: string | undefined;
    for (const read of CREDENTIAL_READERS) {
      const candidate = read(request);
      if (optional ? candidate?.startsWith(VIRTUAL_KEY_PREFIX) : candidate) {
        value = candidate;
        break;
      }
    }
    if (!value) {
      if (optional) return null;
      throw GatewayException.unauthorized(
        'missing_credentials',
        'A virtual key is required (Authorization: Bearer, x-api-key or x-gateway-vk)',
      );
    }
    const identity = this.ports.identity;
    if (!identity) throw GatewayException.unauthorized('invalid_credentials', 'Unknown virtual key');
    const verified = identity.verifyVirtualKey(value);
    return whenReady(verified, principalOf);
  }

  /** A queued job's replayed request: the job's virtual key by id, checked as a presented key would be. */
  private async fromTicket(
    request: FastifyRequest,
    value: string | string[],
    optional: boolean,
  ): Promise<Principal | null> {
    const ticket = typeof value === 'string' ? this.tickets.take(value) : undefined;
    if (!ticket) throw GatewayException.unauthorized('invalid_credentials', 'Unknown job ticket');
    request.jobTicket = ticket;
    if (ticket.virtualKeyId === null) {
      if (optional) return null;
      throw GatewayException.unauthorized('missing_credentials', 'A virtual key is required');
    }
    const identity = this.ports.identity;
    if (!identity) throw GatewayException.unauthorized('invalid_credentials', 'Unknown virtual key');
    return principalOf(await identity.verifyVirtualKeyId(ticket.virtualKeyId));
  }
}
