import { Injectable } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway-config.js';
import { SecretsService } from '../secrets/secrets.service.js';
import { constantTimeEqual } from './credentials.util.js';
import { isDashboardAuthActive } from './dashboard-auth.js';
import type { Principal } from './principal.js';

/** The local admin account of `auth_config` (username plus a SecretValue password). */
@Injectable()
export class AdminCredentialsService {
  constructor(
    private readonly config: GatewayConfig,
    private readonly secrets: SecretsService,
  ) {}

  get username(): string | undefined {
    return this.config.auth_config.admin_username;
  }

  isAdminUsername(username: string): boolean {
    const expected = this.username;
    return expected !== undefined && constantTimeEqual(username, expected);
  }

  /** True when dashboard auth is active and both halves match (each compared in constant time). */
  async verify(username: string, password: string): Promise<boolean> {
    const { admin_username, admin_password } = this.config.auth_config;
    if (!isDashboardAuthActive(this.config) || !admin_username || !admin_password) return false;
    const expected = await this.secrets.resolveConfigSecret(admin_password);
    const userOk = constantTimeEqual(username, admin_username);
    const passwordOk = constantTimeEqual(password, expected);
    return userOk && passwordOk;
  }

  /**
   * A fingerprint of the admin's username and current password, kept on the admin's sessions: a session opened under
   * another password (changed in the config, then restarted) no longer matches and is revoked. Null without an admin.
   */
  async credentialStamp(): Promise<string | null> {
    const { admin_username, admin_password } = this.config.auth_config;
    if (!admin_username || !admin_password) return null;
    const password = await this.secrets.resolveConfigSecret(admin_password);
    return this.secrets.fingerprint(`admin\u0000${admin_username}\u0000${password}`);
  }

  principal(authMethod: Principal['authMethod'], sessionId?: string): Principal {
    return {
      kind: 'local_admin',
      authMethod,
      id: 'admin',
      name: this.username ?? 'admin',
      permissions: 'all',
      ...(sessionId ? { sessionId } : {}),
    };
  }
}
