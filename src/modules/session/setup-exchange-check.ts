import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { SETUP_TOKEN_HEADER } from '../../core/auth/credential-headers.js';
import { isDashboardAuthActive, isSetupLockActive } from '../../core/auth/dashboard-auth.js';
import { RouteCredentialChecks } from '../../core/auth/route-credential-checks.js';
import { SetupTokenStrategy } from '../../core/auth/strategies/setup-token.strategy.js';
import { GatewayConfig } from '../../core/config/gateway-config.js';
import { GatewayException } from '../../core/errors/gateway.exception.js';

/** The `@RouteCredential` check of `POST /api/session/setup`. */
export const SETUP_EXCHANGE_CHECK = 'session-setup';

/**
 * `POST /api/session/setup` trades the setup token for a cookie: the token (its header) is checked, throttled, before
 * the request's body is read, like every other credential.
 */
@Injectable()
export class SetupExchangeCheck implements OnModuleInit {
  constructor(
    private readonly config: GatewayConfig,
    private readonly setupToken: SetupTokenStrategy,
    private readonly checks: RouteCredentialChecks,
  ) {}

  onModuleInit(): void {
    this.checks.register(SETUP_EXCHANGE_CHECK, (request) => this.check(request));
  }

  private check(request: FastifyRequest): Promise<void> {
    if (!isSetupLockActive(this.config)) {
      throw GatewayException.forbidden(
        'setup_token_invalid',
        isDashboardAuthActive(this.config)
          ? 'Dashboard auth is enabled: sign in instead of using the setup token'
          : 'The setup lock applies to the open-source edition only',
      );
    }
    const header = request.headers[SETUP_TOKEN_HEADER];
    return this.setupToken.checkHeader(Array.isArray(header) ? header[0] : header, request.ip);
  }
}
