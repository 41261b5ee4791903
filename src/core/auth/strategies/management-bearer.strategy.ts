import { Injectable } from '@nestjs/common';
import { GatewayException } from '../../errors/gateway.exception.js';
import { AdminCredentialsService } from '../admin-credentials.service.js';
import { CredentialThrottle } from '../credential-throttle.js';
import { MANAGEMENT_KEY_PREFIX, splitUserPassword } from '../credentials.util.js';
import type { Principal } from '../principal.js';
import { AuthPorts } from '../auth-ports.js';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * ManagementBearerAuth: a `gwm_` management API key, a dashboard session token, or (legacy) base64 of
 * `<admin-username>:<admin-password>`. Stateless.
 */
@Injectable()
export class ManagementBearerStrategy {
  constructor(
    private readonly admin: AdminCredentialsService,
    private readonly ports: AuthPorts,
    private readonly throttle: CredentialThrottle,
  ) {}

  async validate(token: string, address: string): Promise<Principal> {
    const principal = await this.tryValidate(token, address);
    if (principal) return principal;
    throw GatewayException.unauthorized('invalid_credentials', 'Invalid, expired or revoked bearer token');
  }

  async tryValidate(token: string, address: string): Promise<Principal | null> {
    if (token.startsWith(MANAGEMENT_KEY_PREFIX)) {
      return (await this.ports.identity?.verifyManagementKey(token)) ?? null;
    }
    const session = await this.ports.sessions?.verifyDashboardSession(token);
    if (session) return session;
    if (BASE64.test(token)) {
      const pair = splitUserPassword(Buffer.from(token, 'base64').toString('utf8'));
      // A password check like Basic's, so it shares Basic's throttle.
      const verified =
        pair &&
        (await this.throttle.check(pair.username, address, () => this.admin.verify(pair.username, pair.password)));
      if (verified) return this.admin.principal('legacy_bearer');
    }
    return null;
  }
}
