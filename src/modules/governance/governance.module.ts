import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthPorts } from '../../core/auth/auth-ports.js';
import { GovernanceIdentityService } from './governance-identity.service.js';
import { DefaultGovernancePolicies } from './limits/default-governance-policies.js';
import { GovernanceEnforcer } from './limits/governance-enforcer.js';
import { GovernancePolicies } from './limits/governed-levels.js';
import { QuotaController } from './limits/quota.controller.js';
import { QuotaReader } from './limits/quota.reader.js';
import { ManagementKeyEntity } from './management-keys/entities/management-key.entity.js';
import { ManagementKeysController } from './management-keys/management-keys.controller.js';
import { ManagementKeysService } from './management-keys/management-keys.service.js';
import { RoleEntity } from './rbac/entities/role.entity.js';
import { RolesController } from './rbac/roles.controller.js';
import { RolesService } from './rbac/roles.service.js';
import { UserEntity } from './users/entities/user.entity.js';
import { UsersController } from './users/users.controller.js';
import { UsersService } from './users/users.service.js';
import { VirtualKeyCredentialEntity } from './virtual-keys/entities/virtual-key-credential.entity.js';
import { VirtualKeyEntity } from './virtual-keys/entities/virtual-key.entity.js';
import { VirtualKeyCache } from './virtual-keys/virtual-key-cache.js';
import { VirtualKeysController } from './virtual-keys/virtual-keys.controller.js';
import { VirtualKeysService } from './virtual-keys/virtual-keys.service.js';

/**
 * Identity and access: roles, users, management API keys and virtual keys. Plugs its identity provider into the
 * core's auth ports; modules that validate `virtual_key_ids` (Agents) import it for VirtualKeysService.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      RoleEntity,
      UserEntity,
      ManagementKeyEntity,
      VirtualKeyEntity,
      VirtualKeyCredentialEntity,
    ]),
  ],
  controllers: [RolesController, UsersController, ManagementKeysController, VirtualKeysController, QuotaController],
  providers: [
    RolesService,
    UsersService,
    ManagementKeysService,
    VirtualKeyCache,
    VirtualKeysService,
    GovernanceIdentityService,
    { provide: GovernancePolicies, useClass: DefaultGovernancePolicies },
    GovernanceEnforcer,
    QuotaReader,
  ],
  exports: [VirtualKeysService, GovernanceEnforcer],
})
export class GovernanceModule {
  constructor(ports: AuthPorts, identity: GovernanceIdentityService) {
    ports.provideIdentity(identity);
  }
}
