import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module.js';
import { GovernanceModule } from '../governance/governance.module.js';
import { AccessProfileCopyEntity } from './entities/access-profile-copy.entity.js';
import { AccessProfileEntity } from './entities/access-profile.entity.js';
import { ManagedKeyWriter } from './managed-key.writer.js';
import { AccessProfileCopiesService } from './copies/access-profile-copies.service.js';
import { UserAccessProfilesController } from './copies/user-access-profiles.controller.js';
import { AccessProfilesController } from './templates/access-profiles.controller.js';
import { AccessProfilesService } from './templates/access-profiles.service.js';
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
    TypeOrmModule.forFeature([
      AccessProfileEntity,
      AccessProfileCopyEntity,
      AccessProfilePropagationEntity,
      AccessProfilePropagationUserEntity,
    ]),
  ],
  controllers: [
    AccessProfilesController,
    UserAccessProfilesController,
    PropagationsController,
    DeprecatedPropagateController,
  ],
  providers: [
    ManagedKeyWriter,
    AccessProfilesService,
    AccessProfileCopiesService,
    PropagationsService,
    PropagationRunner,
    PropagationAudit,
  ],
})
export class AccessProfilesModule {}
