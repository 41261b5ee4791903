import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { GatewayException } from '../errors/gateway.exception.js';
import { headerValue } from '../http/request-header.js';
import { API_KEY_HEADER, VIRTUAL_KEY_HEADER, VIRTUAL_KEY_PREFIX } from './credentials.util.js';
import { AuthPorts } from './auth-ports.js';
import { JOB_TICKET_HEADER, JobTickets } from './job-tickets.js';
import type { AuthenticatedVirtualKey, Principal } from './principal.js';

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
  const authorization = headerValue(request, 'authorization');
  if (!authorization || authorization.length < 8 || authorization.slice(0, 7).toLowerCase() !== 'bearer ') return;
  return authorization.slice(7).trim() || undefined;
}

/** Where a virtual key may come, in order; the last two are the native SDKs' own (Gemini, Azure OpenAI). */
const CREDENTIAL_READERS: ReadonlyArray<(request: FastifyRequest) => string | undefined> = [
  (request) => headerValue(request, VIRTUAL_KEY_HEADER),
  (request) => headerValue(request, API_KEY_HEADER),
  bearerOf,
  (request) => headerValue(request, 'x-goog-api-key'),
  (request) => headerValue(request, 'api-key'),
];

/**
 * The one authenticator of the data plane (inference, A2A, MCP, the quota route): reads the virtual key once
 * (`x-gateway-vk`, then `x-api-key`, then `Authorization: Bearer`, then the native `x-goog-api-key` and `api-key`) and resolves it from the identity provider's
 * in-memory key snapshot, invalidated on change on every replica. No passport layers and no database on this path:
 * one hash and one map lookup. The principal carries what later checks need (status was checked here; expiry, team,
 * customer and limit descriptors ride along).
 */
@Injectable()
export class DataPlaneAuthenticator {
  constructor(
    private readonly ports: AuthPorts,
    private readonly tickets: JobTickets,
  ) {}

  /**
   * The caller's principal; null when `optional` and no gateway key (`sk-gw-…`) was presented. Synchronous when the
   * key is in memory (the common case), a promise only when it had to be loaded.
   */
  authenticate(request: FastifyRequest, optional: boolean): Principal | null | Promise<Principal | null> {
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
    return verified instanceof Promise ? verified.then(principalOf) : principalOf(verified);
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
