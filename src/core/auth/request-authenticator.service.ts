import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config/gateway-config.js';
import { GatewayException } from '../errors/gateway.exception.js';
import { presentsVirtualKey, readCredentials } from './credentials.util.js';
import { isSetupLockActive } from './dashboard-auth.js';
import { PassportSchemes, type SchemeName } from './passport-schemes.js';
import type { Principal } from './principal.js';
import { AuthPorts } from './auth-ports.js';
import { BasicAuthStrategy } from './strategies/basic-auth.strategy.js';
import { ManagementBearerStrategy } from './strategies/management-bearer.strategy.js';
import { SetupTokenStrategy } from './strategies/setup-token.strategy.js';
import { ManagementTickets } from './management-tickets.js';

/**
 * Turns a request's credentials into a Principal with the passport strategy each management scheme calls for (the
 * data plane's virtual keys go through DataPlaneAuthenticator, one lookup without passport's layers). Stateless: nothing is
 * stored on a session; the guard puts the principal on the request. Also usable by routes registered on Fastify
 * directly (which Nest guards do not reach).
 */
@Injectable()
export class RequestAuthenticator {
  constructor(
    private readonly config: GatewayConfig,
    private readonly basic: BasicAuthStrategy,
    private readonly bearer: ManagementBearerStrategy,
    private readonly setup: SetupTokenStrategy,
    private readonly ports: AuthPorts,
    private readonly tickets: ManagementTickets,
  ) {
    const credentials = (request: FastifyRequest) => readCredentials(request);
    this.schemes.register('basic', (request) => {
      const basic = credentials(request).basic;
      return basic ? this.basic.validate(basic, request.ip) : Promise.resolve(null);
    });
    this.schemes.register('management-bearer', (request) => {
      const bearer = credentials(request).bearer;
      return bearer !== undefined ? this.bearer.validate(bearer, request.ip) : Promise.resolve(null);
    });
    this.schemes.register('setup-token', (request) => this.setup.validate(credentials(request), request.ip));
  }

  private readonly schemes = new PassportSchemes();

  private async through(name: SchemeName, request: FastifyRequest): Promise<Principal> {
    const principal = await this.schemes.authenticate(name, request);
    if (!principal) throw GatewayException.unauthorized('invalid_credentials', 'The credentials were not accepted');
    return principal;
  }

  /** A management caller (`/api/*`, `/metrics`, `/ws`), or a GatewayException (401/403). */
  async authenticateManagement(request: FastifyRequest): Promise<Principal> {
    const credentials = readCredentials(request);
    if (presentsVirtualKey(credentials)) {
      throw GatewayException.unauthorized(
        'virtual_key_not_accepted',
        'Virtual keys and the x-api-key header are not accepted on management APIs',
      );
    }
    // Without dashboard auth the setup lock authenticates management callers in both editions: the contract's rule 3
    // lets them bypass permission checks, but an enterprise deployment must not be open to anyone who can reach it.
    if (isSetupLockActive(this.config)) return this.through('setup-token', request);
    if (credentials.basic) return this.through('basic', request);
    if (credentials.bearer !== undefined) return this.through('management-bearer', request);
    if (credentials.malformedAuthorization) {
      throw GatewayException.unauthorized('invalid_credentials', 'Unsupported or malformed Authorization header');
    }
    if (credentials.sessionCookie) {
      const principal = await this.ports.sessions?.verifyDashboardSession(credentials.sessionCookie);
      if (principal) return principal;
      throw GatewayException.unauthorized('invalid_credentials', 'The session has expired or was revoked');
    }
    throw GatewayException.unauthorized(
      'missing_credentials',
      'Management credentials are required (Basic, or Bearer with a management key or session token)',
    );
  }

  /**
   * A management caller, or the principal of the one-use ticket in `?ticket=` (routes declared `@AcceptsTicket`). A
   * ticket is itself the credential, so it passes the setup lock like the setup session it may stand for.
   */
  async authenticateManagementOrTicket(request: FastifyRequest): Promise<Principal> {
    const ticket = (request.query as Record<string, unknown> | undefined)?.ticket;
    if (ticket === undefined) return this.authenticateManagement(request);
    const principal = typeof ticket === 'string' && ticket !== '' ? await this.tickets.redeem(ticket) : null;
    if (!principal)
      throw GatewayException.unauthorized('invalid_credentials', 'The ticket is unknown, used or expired');
    return principal;
  }

  /** Whether the request carries a valid management credential (for `GET /api/session/is-auth-enabled`). */
  async hasValidCredential(request: FastifyRequest): Promise<boolean> {
    try {
      await this.authenticateManagement(request);
      return true;
    } catch (err) {
      if (err instanceof GatewayException) return false;
      throw err;
    }
  }
}
