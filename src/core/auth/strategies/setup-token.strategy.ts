import { Injectable } from '@nestjs/common';
import { GatewayConfig } from '../../config/gateway-config.js';
import { GatewayException } from '../../errors/gateway.exception.js';
import { constantTimeEqual, type PresentedCredentials } from '../credentials.util.js';
import type { Principal } from '../principal.js';
import { AuthPorts } from '../auth-ports.js';

const SETUP_PRINCIPAL_NAME = 'setup';

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
export class SetupTokenStrategy {
  constructor(
    private readonly config: GatewayConfig,
    private readonly ports: AuthPorts,
  ) {}

  /** Checks the header alone (the setup exchange route): 401 when missing, 403 when wrong or unconfigured. */
  checkHeader(presented: string | undefined): void {
    if (presented === undefined || presented === '') missingSetupToken();
    const expected = this.config.setup_token;
    if (!expected) {
      throw GatewayException.forbidden(
        'setup_token_invalid',
        'No setup token is configured on the server: set setup_token (or GATEWAY_SETUP_TOKEN) or enable dashboard auth',
      );
    }
    if (!constantTimeEqual(presented, expected)) {
      throw GatewayException.forbidden('setup_token_invalid', 'The setup token is not valid');
    }
  }

  async validate(credentials: PresentedCredentials): Promise<Principal> {
    if (credentials.setupToken) {
      this.checkHeader(credentials.setupToken);
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
