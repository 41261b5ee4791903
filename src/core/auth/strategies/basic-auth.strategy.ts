import { Injectable } from '@nestjs/common';
import { GatewayException } from '../../errors/gateway.exception.js';
import { AdminCredentialsService } from '../admin-credentials.service.js';
import type { Principal } from '../principal.js';

/**
 * BasicAuth (management only): the admin username and password of `auth_config`. Stateless: it answers a principal
 * or throws, and never touches a session. The inference side never calls it.
 */
@Injectable()
export class BasicAuthStrategy {
  constructor(private readonly admin: AdminCredentialsService) {}

  async validate(credentials: { username: string; password: string }): Promise<Principal> {
    if (await this.admin.verify(credentials.username, credentials.password)) return this.admin.principal('basic');
    throw GatewayException.unauthorized('invalid_credentials', 'Invalid username or password');
  }
}
