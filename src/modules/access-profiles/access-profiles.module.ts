import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/index.js';
import { GovernanceModule } from '../governance/index.js';
import { McpToolGroupsModule } from '../mcp/index.js';
import { AccessProfileCopyEntity } from './entities/access-profile-copy.entity.js';
import { AccessProfileVersionEntity } from './entities/access-profile-version.entity.js';
import { AccessProfileEntity } from './entities/access-profile.entity.js';
import { AccessProfileRoleEntity } from './entities/access-profile-role.entity.js';
import { ManagedKeyWriter } from './managed-key.writer.js';
import { ToolGroupReferences } from './tool-group-references.js';
import { AccessProfileCopiesService } from './copies/access-profile-copies.service.js';
import { UserAccessProfilesController } from './copies/user-access-profiles.controller.js';
import { AccessProfilesController } from './templates/access-profiles.controller.js';
import { AccessProfilesService } from './templates/access-profiles.service.js';
import { AccessProfileVersionsController } from './templates/access-profile-versions.controller.js';
import { AccessProfileVersionsService } from './templates/access-profile-versions.service.js';
import { DeprecatedAccessProfileVersionsController } from './templates/deprecated-access-profile-versions.controller.js';
import { AccessProfileRolesController } from './roles/access-profile-roles.controller.js';
import { AccessProfileRolesService } from './roles/access-profile-roles.service.js';
import { RoleDefaultProfiles } from './roles/role-default-profiles.js';
import { DeprecatedPropagateController } from './propagation/deprecated-propagate.controller.js';
import { AccessProfilePropagationUserEntity } from './propagation/entities/access-profile-propagation-user.entity.js';
import { AccessProfilePropagationEntity } from './propagation/entities/access-profile-propagation.entity.js';
import { PropagationAudit } from './propagation/propagation.audit.js';
import { PropagationRunner } from './propagation/propagation.runner.js';
import { PropagationsController } from './propagation/propagations.controller.js';
import { PropagationsService } from './propagation/propagations.service.js';

/**
 * Access profiles (enterprise): templates (`/api/governance/access-profiles`), users' copies with their
 * profile-managed virtual keys, and propagation of template changes to the copies as a tracked job.
 */
@Module({
  imports: [
    GovernanceModule,
    AuditModule,
    McpToolGroupsModule,
    TypeOrmModule.forFeature([
      AccessProfileEntity,
      AccessProfileCopyEntity,
      AccessProfileVersionEntity,
      AccessProfileRoleEntity,
      AccessProfilePropagationEntity,
      AccessProfilePropagationUserEntity,
    ]),
  ],
  controllers: [
    AccessProfilesController,
    AccessProfileVersionsController,
    DeprecatedAccessProfileVersionsController,
    UserAccessProfilesController,
    AccessProfileRolesController,
    PropagationsController,
    DeprecatedPropagateController,
  ],
  providers: [
    ManagedKeyWriter,
    AccessProfilesService,
    AccessProfileVersionsService,
    AccessProfileCopiesService,
    AccessProfileRolesService,
    RoleDefaultProfiles,
    PropagationsService,
    PropagationRunner,
    PropagationAudit,
    ToolGroupReferences,
  ],
})
export class AccessProfilesModule {}
