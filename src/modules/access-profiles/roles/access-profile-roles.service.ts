import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { RoleEntity, UserEntity, type RemovedLimits } from '../../governance/index.js';
import { isId } from '../../../core/validation/ids.js';
import { AccessProfileCopiesService, mergeLimits } from '../copies/access-profile-copies.service.js';
import { AccessProfileCopyEntity } from '../entities/access-profile-copy.entity.js';
import { AccessProfileRoleEntity } from '../entities/access-profile-role.entity.js';
import { ManagedKeyWriter } from '../managed-key.writer.js';
import { AccessProfilesService } from '../templates/access-profiles.service.js';
import type { AttachRolesDto, AttachRolesResponseDto } from './dto/access-profile-roles.dto.js';

/**
 * Roles attached to access profiles. Attaching with `apply_to_existing` gives every current holder of the roles a copy
 * (in the same transaction: all of them or none); `is_default` makes the role's future holders get one
 * (RoleDefaultProfiles). Detaching removes no copy already made.
 */
@Injectable()
export class AccessProfileRolesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly profiles: AccessProfilesService,
    private readonly copies: AccessProfileCopiesService,
    private readonly managedKeys: ManagedKeyWriter,
  ) {}

  async attach(profileId: number, dto: AttachRolesDto): Promise<AttachRolesResponseDto> {
    const isDefault = dto.is_default ?? false;
    const roleIds = dto.role_ids.map((id) => id.toLowerCase());
    const toReset: RemovedLimits = { budgetIds: [], rateLimitIds: [] };
    const { name, applied } = await this.dataSource.transaction(async (m) => {
      const profile = await this.profiles.get(profileId, m);
      const known = new Set((await m.findBy(RoleEntity, { id: In(roleIds) })).map((r) => r.id));
      const missing = roleIds.findIndex((id) => !known.has(id));
      if (missing >= 0) {
        throw GatewayException.validation(`role_ids[${missing}]`, `role_ids[${missing}] is not an existing role`);
      }
      if (dto.apply_to_existing && !profile.is_active) {
        throw GatewayException.validation(
          'apply_to_existing',
          `Access profile ${profileId} is inactive: activate it before giving it to the roles' users`,
        );
      }
      const attached = await m.findBy(AccessProfileRoleEntity, { access_profile_id: profileId, role_id: In(roleIds) });
      const byRole = new Map(attached.map((a) => [a.role_id, a]));
      for (const roleId of roleIds) {
        const existing = byRole.get(roleId);
        if (existing) await m.update(AccessProfileRoleEntity, { id: existing.id }, { is_default: isDefault });
        else
          await m.insert(AccessProfileRoleEntity, {
            access_profile_id: profileId,
            role_id: roleId,
            is_default: isDefault,
          });
      }
      let applied = 0;
      if (dto.apply_to_existing) {
        const users = await m.find(UserEntity, {
          where: { role_id: In(roleIds) },
          order: { created_at: 'ASC', id: 'ASC' },
        });
        const holders = new Set(
          (
            await m.find(AccessProfileCopyEntity, {
              select: { user_id: true },
              where: { parent_profile_id: profileId, user_id: In(users.map((u) => u.id)) },
            })
          ).map((c) => c.user_id),
        );
        for (const user of users) {
          if (holders.has(user.id)) continue;
          const created = await this.copies.createCopy(m, user, profile, { kind: 'role', roleId: user.role_id });
          mergeLimits(toReset, created.toReset);
          applied++;
        }
      }
      return { name: profile.name, applied };
    });
    await this.managedKeys.afterCommit(toReset);
    return {
      message: `${roleIds.length} role(s) attached to access profile ${name}`,
      users_applied: applied,
    };
  }

  async detach(profileId: number, roleId: string): Promise<void> {
    await this.profiles.get(profileId);
    const result = isId(roleId)
      ? await this.dataSource.manager.delete(AccessProfileRoleEntity, {
          access_profile_id: profileId,
          role_id: roleId.toLowerCase(),
        })
      : { affected: 0 };
    if (!result.affected) {
      throw GatewayException.notFound(
        'access_profile_role',
        `Role ${roleId} is not attached to access profile ${profileId}`,
      );
    }
  }
}
