import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { isUniqueViolation } from '../../../core/persistence/db-errors.js';
import { isId } from '../../governance/shared/ids.js';
import { UserEntity } from '../../governance/users/entities/user.entity.js';
import type { RemovedLimits } from '../../governance/objects/limits.store.js';
import { VirtualKeysService } from '../../governance/virtual-keys/virtual-keys.service.js';
import { profileFieldsOf } from '../access-profile-fields.js';
import { AccessProfileCopyEntity, type CopyAssignment } from '../entities/access-profile-copy.entity.js';
import { ManagedKeyWriter } from '../managed-key.writer.js';
import { AccessProfilesService } from '../templates/access-profiles.service.js';
import type { AccessProfileCopyDto, AssignedAccessProfileDto } from './dto/access-profile-copy.dto.js';

const COPY_CONFLICT = 'uq_access_profile_copies_user_id_parent_profile_id';

/** A key value as lists show it: its prefix and last four characters. */
export function maskKeyValue(value: string): string {
  return `${value.slice(0, 8)}…${value.slice(-4)}`;
}

/**
 * Users' copies of access profiles. Assigning copies the template's fields and builds the copy's managed virtual key
 * from them, with fresh counters, in one transaction.
 */
@Injectable()
export class AccessProfileCopiesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly profiles: AccessProfilesService,
    private readonly keys: VirtualKeysService,
    private readonly managedKeys: ManagedKeyWriter,
  ) {}

  async assign(
    userId: string,
    profileId: number,
    via: { kind: CopyAssignment; roleId?: string } = { kind: 'direct' },
  ): Promise<AssignedAccessProfileDto> {
    let toReset: RemovedLimits = { budgetIds: [], rateLimitIds: [] };
    try {
      const { copy, key, value } = await this.dataSource.transaction(async (m) => {
        const user = isId(userId) ? await m.findOneBy(UserEntity, { id: userId }) : null;
        if (!user) throw GatewayException.notFound('user', `User ${userId} not found`);
        const profile = await this.profiles.get(profileId, m);
        if (!profile.is_active) {
          throw GatewayException.validation('profile_id', `Access profile ${profileId} is inactive`);
        }
        const copy = await m.save(
          m.create(AccessProfileCopyEntity, {
            user_id: userId,
            parent_profile_id: profile.id,
            name: profile.name,
            is_active: true,
            expires_at: null,
            assigned_via: via.kind,
            role_id: via.roleId ?? null,
            ...profileFieldsOf(profile),
          }),
        );
        const { key, value } = await this.keys.insertManaged(m, {
          name: `${profile.name} (${user.email})`.slice(0, 255),
          description: `Managed by access profile ${profile.name} for ${user.email}`,
          access_profile_copy_id: copy.id,
        });
        toReset = await this.managedKeys.write(m, key.id, profileFieldsOf(copy), { resetUsage: false });
        return { copy, key, value };
      });
      await this.managedKeys.afterCommit(toReset);
      return {
        message: 'Access profile assigned',
        access_profile: AccessProfileCopiesService.toView(copy, [{ id: key.id, value }]),
        virtual_key: await this.keys.view(key, value),
      };
    } catch (error) {
      if (isUniqueViolation(error, COPY_CONFLICT)) {
        throw GatewayException.conflict(`User ${userId} already holds access profile ${profileId}`, 'profile_id');
      }
      throw error;
    }
  }

  static toView(copy: AccessProfileCopyEntity, keys: Array<{ id: string; value: string }>): AccessProfileCopyDto {
    return {
      id: copy.id,
      user_id: copy.user_id,
      parent_profile_id: copy.parent_profile_id,
      name: copy.name,
      is_active: copy.is_active,
      expires_at: copy.expires_at?.toISOString() ?? null,
      virtual_key_ids: keys.map((k) => k.id),
      virtual_key_values: keys.map((k) => maskKeyValue(k.value)),
    };
  }
}
