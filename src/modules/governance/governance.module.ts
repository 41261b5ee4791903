import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthPorts } from '../../core/auth/auth-ports.js';
import { CustomersController } from './customers/customers.controller.js';
import { CustomersService } from './customers/customers.service.js';
import { GovernanceIdentityService } from './governance-identity.service.js';
import { GovernanceEnforcer } from './limits/governance-enforcer.js';
import { GovernancePolicies } from './limits/governed-levels.js';
import { QuotaController } from './limits/quota.controller.js';
import { QuotaReader } from './limits/quota.reader.js';
import { ModelConfigsController } from './model-configs/model-configs.controller.js';
import { ModelConfigsService } from './model-configs/model-configs.service.js';
import { BudgetOverridesService } from './objects/budget-overrides.service.js';
import { GovernanceInventory } from './objects/governance-inventory.service.js';
import { GovernanceObjectsController } from './objects/governance-objects.controller.js';
import { LimitsStore } from './objects/limits.store.js';
import { GovernancePoliciesService } from './policies/governance-policies.service.js';
import { ProviderGovernanceController } from './provider-governance/provider-governance.controller.js';
import { ProviderGovernanceService } from './provider-governance/provider-governance.service.js';
import { ProviderKeyIds } from './shared/provider-key-ids.js';
import { DeprecatedTeamCustomersController } from './teams/deprecated-team-customers.controller.js';
import { TeamsController } from './teams/teams.controller.js';
import { TeamsService } from './teams/teams.service.js';
import { VirtualKeyPolicyWriter } from './virtual-keys/virtual-key-policy.writer.js';
import { BudgetEntity } from './objects/entities/budget.entity.js';
import { CustomerEntity } from './objects/entities/customer.entity.js';
import { ModelConfigEntity } from './objects/entities/model-config.entity.js';
import { ProviderGovernanceEntity } from './objects/entities/provider-governance.entity.js';
import { RateLimitEntity } from './objects/entities/rate-limit.entity.js';
import { TeamCustomerEntity } from './objects/entities/team-customer.entity.js';
import { TeamEntity } from './objects/entities/team.entity.js';
import { VirtualKeyProviderConfigEntity } from './virtual-keys/entities/virtual-key-provider-config.entity.js';
import { ManagementKeyEntity } from './management-keys/entities/management-key.entity.js';
import { ManagementKeysController } from './management-keys/management-keys.controller.js';
import { ManagementKeysService } from './management-keys/management-keys.service.js';
import { RoleEntity } from './rbac/entities/role.entity.js';
import { RolesController } from './rbac/roles.controller.js';
import { RolesService } from './rbac/roles.service.js';
import { UserEntity } from './users/entities/user.entity.js';
import { UsersController } from './users/users.controller.js';
import { UserRoleListeners } from './users/user-role-listeners.js';
import { UsersService } from './users/users.service.js';
import { VirtualKeyCredentialEntity } from './virtual-keys/entities/virtual-key-credential.entity.js';
import { VirtualKeyEntity } from './virtual-keys/entities/virtual-key.entity.js';
import { VirtualKeyCache } from './virtual-keys/virtual-key-cache.js';
import { VirtualKeysController } from './virtual-keys/virtual-keys.controller.js';
import { VirtualKeysService } from './virtual-keys/virtual-keys.service.js';

/**
 * Identity and access: roles, users, management API keys and virtual keys; governance objects (teams, customers,
 * budgets, rate limits, provider governance, model configs) and the GovernancePolicies snapshot built from them. Plugs its identity provider into the
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
      VirtualKeyProviderConfigEntity,
      TeamEntity,
      CustomerEntity,
      TeamCustomerEntity,
      BudgetEntity,
      RateLimitEntity,
      ProviderGovernanceEntity,
      ModelConfigEntity,
    ]),
  ],
  controllers: [
    RolesController,
    UsersController,
    ManagementKeysController,
    VirtualKeysController,
    TeamsController,
    DeprecatedTeamCustomersController,
    CustomersController,
    GovernanceObjectsController,
    ProviderGovernanceController,
    ModelConfigsController,
    QuotaController,
  ],
  providers: [
    RolesService,
    UsersService,
    UserRoleListeners,
    ManagementKeysService,
    VirtualKeyCache,
    VirtualKeysService,
    GovernanceIdentityService,
    LimitsStore,
    ProviderKeyIds,
    VirtualKeyPolicyWriter,
    GovernancePoliciesService,
    { provide: GovernancePolicies, useExisting: GovernancePoliciesService },
    GovernanceEnforcer,
    QuotaReader,
    TeamsService,
    CustomersService,
    GovernanceInventory,
    BudgetOverridesService,
    ProviderGovernanceService,
    ModelConfigsService,
  ],
  exports: [
    VirtualKeysService,
    GovernancePolicies,
    GovernanceEnforcer,
    // The access-profiles module writes the policy of the keys it manages.
    VirtualKeyPolicyWriter,
    VirtualKeyCache,
    LimitsStore,
    GovernancePoliciesService,
    // Access profiles give users their role's default profiles.
    UserRoleListeners,
  ],
})
export class GovernanceModule {
  constructor(ports: AuthPorts, identity: GovernanceIdentityService) {
    ports.provideIdentity(identity);
  }
}
