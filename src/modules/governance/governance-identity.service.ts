import { Injectable } from '@nestjs/common';
import type { IdentityProvider } from '../../core/auth/identity-provider.js';
import { formatPermission } from '../../core/auth/permissions.js';
import type { AuthenticatedVirtualKey, Principal } from '../../core/auth/principal.js';
import { ManagementKeysService } from './management-keys/management-keys.service.js';
import { UsersService } from './users/users.service.js';
import { VirtualKeysService } from './virtual-keys/virtual-keys.service.js';

/** The governance side of authentication: the guard asks here who a credential belongs to (plugged into AuthPorts). */
@Injectable()
export class GovernanceIdentityService implements IdentityProvider {
  constructor(
    private readonly managementKeys: ManagementKeysService,
    private readonly users: UsersService,
    private readonly virtualKeys: VirtualKeysService,
  ) {}

  async verifyManagementKey(token: string): Promise<Principal | null> {
    const key = await this.managementKeys.authenticate(token);
    if (!key) return null;
    return {
      kind: 'management_key',
      authMethod: 'management_key',
      id: key.id,
      name: key.name,
      permissions: new Set(key.scopes.map(formatPermission)),
    };
  }

  async verifyUserPassword(
    email: string,
    password: string,
  ): Promise<{ id: string; name: string; permissions: string[] } | null> {
    const found = await this.users.verifyPassword(email, password);
    return found ? { id: found.user.id, name: found.user.name, permissions: found.permissions } : null;
  }

  async loadUser(userId: string): Promise<Principal | null> {
    const found = await this.users.load(userId);
    if (!found) return null;
    return {
      kind: 'user',
      authMethod: 'session',
      id: found.user.id,
      name: found.user.name,
      permissions: new Set(found.permissions),
    };
  }

  /** Synchronous when the key is in memory. */
  verifyVirtualKey(value: string): AuthenticatedVirtualKey | Promise<AuthenticatedVirtualKey> {
    return this.virtualKeys.verify(value);
  }

  verifyVirtualKeyId(id: string): Promise<AuthenticatedVirtualKey> {
    return this.virtualKeys.verifyId(id);
  }
}
