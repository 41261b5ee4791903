import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { GatewayConfig } from '../../config/gateway-config.js';
import { LOGGER } from '../../logging/logging.module.js';
import { GatewayException } from '../../errors/gateway.exception.js';
import { constantTimeEqual, type PresentedCredentials } from '../credentials.util.js';
import type { Principal } from '../principal.js';
import { AuthPorts } from '../auth-ports.js';
import { CredentialThrottle, SETUP_TOKEN_ACCOUNT } from '../credential-throttle.js';
import { isSetupLockActive } from '../dashboard-auth.js';

const SETUP_PRINCIPAL_NAME = 'setup';
/** Shorter setup tokens are accepted (operators choose them) but warned about: they can be guessed. */
export const MIN_SETUP_TOKEN_LENGTH = 16;

function missingSetupToken(): never {
  throw GatewayException.unauthorized(
    'setup_token_required',
    'This gateway is not set up yet: send the setup token in the X-Gateway-Setup-Token header',
  );
}

/**
 * The open-source setup lock: `X-Gateway-Setup-Token` (compared in constant time) or the `gateway_setup_session`
 * cookie. A setup caller is the local admin of a deployment without dashboard auth.
 */
@Injectable()
export class SetupTokenStrategy implements OnApplicationBootstrap {
  constructor(
    private readonly config: GatewayConfig,
    private readonly ports: AuthPorts,
    private readonly throttle: CredentialThrottle,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const token = this.config.setup_token;
    if (token && token.length < MIN_SETUP_TOKEN_LENGTH && isSetupLockActive(this.config)) {
      this.logger.warn(
        { setup_token_length: token.length, minimum: MIN_SETUP_TOKEN_LENGTH },
        `the setup token is shorter than ${MIN_SETUP_TOKEN_LENGTH} characters: choose a longer random one (openssl rand -hex 16)`,
      );
    }
  }

  /**
   * Checks the header alone (the setup exchange route): 401 when missing, 403 when wrong or unconfigured, 429 once
   * the shared password throttle is exceeded (a wrong token counts as a failed password of one account).
   */
  async checkHeader(presented: string | undefined, address: string): Promise<void> {
    if (presented === undefined || presented === '') missingSetupToken();
    const expected = this.config.setup_token;
    if (!expected) {
      throw GatewayException.forbidden(
        'setup_token_invalid',
        'No setup token is configured on the server: set setup_token (or GATEWAY_SETUP_TOKEN) or enable dashboard auth',
      );
    }
    if (!(await this.throttle.check(SETUP_TOKEN_ACCOUNT, address, () => constantTimeEqual(presented, expected)))) {
      throw GatewayException.forbidden('setup_token_invalid', 'The setup token is not valid');
    }
  }

  async validate(credentials: PresentedCredentials, address: string): Promise<Principal> {
    if (credentials.setupToken) {
      await this.checkHeader(credentials.setupToken, address);
      return this.principal('setup_token');
    }
    if (credentials.setupSessionCookie) {
      const sessionId = await this.ports.sessions?.verifySetupSession(credentials.setupSessionCookie);
      if (sessionId) return this.principal('setup_session', sessionId);
      throw GatewayException.unauthorized(
        'setup_token_required',
        'The setup session has expired or is unknown: exchange the setup token again',
      );
    }
    missingSetupToken();
  }

  private principal(authMethod: 'setup_token' | 'setup_session', sessionId?: string): Principal {
    return {
      kind: 'setup',
      authMethod,
      name: SETUP_PRINCIPAL_NAME,
      permissions: 'all',
      ...(sessionId ? { sessionId } : {}),
    };
  }
}
