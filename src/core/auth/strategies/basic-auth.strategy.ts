import { Injectable } from '@nestjs/common';
import { GatewayException } from '../../errors/gateway.exception.js';
import { AdminCredentialsService } from '../admin-credentials.service.js';
import { CredentialThrottle } from '../credential-throttle.js';
import type { Principal } from '../principal.js';

/**
 * BasicAuth (management only): the admin username and password of `auth_config`. Stateless: it answers a principal
 * or throws, and never touches a session. The inference side never calls it.
 */
@Injectable()
export class BasicAuthStrategy {
  constructor(
    private readonly admin: AdminCredentialsService,
    private readonly throttle: CredentialThrottle,
  ) {}

  /** Every Basic request checks a password, so each one is an attempt of the shared throttle. */
  async validate(credentials: { username: string; password: string }, address: string): Promise<Principal> {
    const { username, password } = credentials;
    if (await this.throttle.check(username, address, () => this.admin.verify(username, password))) {
      return this.admin.principal('basic');
    }
    throw GatewayException.unauthorized('invalid_credentials', 'Invalid username or password');
  }
}
