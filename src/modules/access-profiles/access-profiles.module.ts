import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GovernanceModule } from '../governance/governance.module.js';
import { AccessProfileCopyEntity } from './entities/access-profile-copy.entity.js';
import { AccessProfileVersionEntity } from './entities/access-profile-version.entity.js';
import { AccessProfileEntity } from './entities/access-profile.entity.js';
import { ManagedKeyWriter } from './managed-key.writer.js';
import { AccessProfileCopiesService } from './copies/access-profile-copies.service.js';
import { UserAccessProfilesController } from './copies/user-access-profiles.controller.js';
import { AccessProfilesController } from './templates/access-profiles.controller.js';
import { AccessProfilesService } from './templates/access-profiles.service.js';
import { AccessProfileVersionsController } from './templates/access-profile-versions.controller.js';
import { AccessProfileVersionsService } from './templates/access-profile-versions.service.js';
import { DeprecatedAccessProfileVersionsController } from './templates/deprecated-access-profile-versions.controller.js';

/**
 * Access profiles (enterprise): templates (`/api/governance/access-profiles`), users' copies with their
 * profile-managed virtual keys, and propagation of template changes to the copies as a tracked job.
 */
@Module({
  imports: [
    GovernanceModule,
    TypeOrmModule.forFeature([AccessProfileEntity, AccessProfileCopyEntity, AccessProfileVersionEntity]),
  ],
  controllers: [
    AccessProfilesController,
    AccessProfileVersionsController,
    DeprecatedAccessProfileVersionsController,
    UserAccessProfilesController,
  ],
  providers: [ManagedKeyWriter, AccessProfilesService, AccessProfileVersionsService, AccessProfileCopiesService],
})
export class AccessProfilesModule {}
