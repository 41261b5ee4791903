import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { isUniqueViolation } from '../../../core/persistence/db-errors.js';
import {
  maskKeyValue,
  UserEntity,
  type RemovedLimits,
  type VirtualKeyEntity,
  VirtualKeysService,
} from '../../governance/index.js';
import { isId } from '../../../core/validation/ids.js';
import { profileFieldsOf } from '../access-profile-fields.js';
import { AccessProfileCopyEntity, type CopyAssignment } from '../entities/access-profile-copy.entity.js';
import type { AccessProfileEntity } from '../entities/access-profile.entity.js';
import { ManagedKeyWriter } from '../managed-key.writer.js';
import { AccessProfilesService } from '../templates/access-profiles.service.js';
import type {
  AccessProfileCopyDto,
  AccessProfileCopyListDto,
  AssignedAccessProfileDto,
  RemovedAccessProfileDto,
} from './dto/access-profile-copy.dto.js';

const COPY_CONFLICT = 'uq_access_profile_copies_user_id_parent_profile_id';

/** How a copy came to be: by hand, or as a default of the user's role. */
export type CopyOrigin = { kind: 'direct' } | { kind: 'role'; roleId: string };

export interface CreatedCopy {
  copy: AccessProfileCopyEntity;
  key: VirtualKeyEntity;
  /** The managed key's value, shown once. */
  value: string;
  /** Counters to reset after the commit (ManagedKeyWriter.afterCommit). */
  toReset: RemovedLimits;
}

export function mergeLimits(into: RemovedLimits, more: RemovedLimits): RemovedLimits {
  into.budgetIds.push(...more.budgetIds);
  into.rateLimitIds.push(...more.rateLimitIds);
  return into;
}

/**
 * Users' copies of access profiles. Assigning copies the template's fields and builds the copy's managed virtual key
 * from them, with fresh counters; removing deletes the copy and every key it produced. Each in one transaction.
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
    via: CopyOrigin = { kind: 'direct' },
  ): Promise<AssignedAccessProfileDto> {
    try {
      const { copy, key, value, toReset } = await this.dataSource.transaction(async (m) => {
        const user = await this.user(m, userId);
        const profile = await this.profiles.get(profileId, m);
        if (!profile.is_active) {
          throw GatewayException.validation('profile_id', `Access profile ${profileId} is inactive`);
        }
        return this.createCopy(m, user, profile, via);
      });
      await this.managedKeys.afterCommit(toReset);
      return {
        message: 'Access profile assigned',
        access_profile: AccessProfileCopiesService.toView(copy, [{ id: key.id, value_hint: maskKeyValue(value) }]),
        // Re-read: the managed-key writer set the policy columns (mcp_configs) after the row was made.
        virtual_key: await this.keys.view(await this.keys.get(key.id), value),
      };
    } catch (error) {
      if (isUniqueViolation(error, COPY_CONFLICT)) {
        throw GatewayException.conflict(`User ${userId} already holds access profile ${profileId}`, 'profile_id');
      }
      throw error;
    }
  }

  /**
   * A user's copy of `profile` and its managed key, inside the caller's transaction (a user already holding the
   * profile: unique violation). The caller runs `ManagedKeyWriter.afterCommit(toReset)` once committed.
   */
  async createCopy(
    m: EntityManager,
    user: Pick<UserEntity, 'id' | 'email'>,
    profile: AccessProfileEntity,
    via: CopyOrigin,
  ): Promise<CreatedCopy> {
    const copy = await m.save(
      m.create(AccessProfileCopyEntity, {
        user_id: user.id,
        parent_profile_id: profile.id,
        name: profile.name,
        is_active: true,
        expires_at: null,
        assigned_via: via.kind satisfies CopyAssignment,
        role_id: via.kind === 'role' ? via.roleId : null,
        ...profileFieldsOf(profile),
      }),
    );
    const { key, value } = await this.keys.insertManaged(m, {
      name: `${profile.name} (${user.email})`.slice(0, 255),
      description: `Managed by access profile ${profile.name} for ${user.email}`,
      access_profile_copy_id: copy.id,
    });
    const toReset = await this.managedKeys.write(m, key.id, profileFieldsOf(copy), { resetUsage: false });
    return { copy, key, value, toReset };
  }

  /** A user's copies with their keys (values masked), oldest first. Unknown user: 404. */
  async list(userId: string): Promise<AccessProfileCopyListDto> {
    const m = this.dataSource.manager;
    await this.user(m, userId);
    const copies = await m.find(AccessProfileCopyEntity, { where: { user_id: userId }, order: { id: 'ASC' } });
    const keys = await this.keys.managedKeys(copies.map((c) => c.id));
    return {
      access_profiles: copies.map((c) =>
        AccessProfileCopiesService.toView(
          c,
          keys.filter((k) => k.access_profile_copy_id === c.id),
        ),
      ),
    };
  }

  /**
   * Removes the user's copy of a profile (`profileId`: the template's id) and every key it produced, all or nothing;
   * their counters are zeroed and every replica's request path forgets the keys. No such copy: 404.
   */
  async remove(userId: string, rawProfileId: string): Promise<RemovedAccessProfileDto> {
    const profileId = /^[1-9]\d{0,9}$/.test(rawProfileId) ? Number(rawProfileId) : NaN;
    const { names, limits } = await this.dataSource.transaction(async (m) => {
      await this.user(m, userId);
      const copy = Number.isSafeInteger(profileId)
        ? await m.findOne(AccessProfileCopyEntity, {
            where: { user_id: userId, parent_profile_id: profileId },
            lock: { mode: 'pessimistic_write' },
          })
        : null;
      if (!copy) {
        throw GatewayException.notFound(
          'access_profile_copy',
          `User ${userId} holds no copy of access profile ${rawProfileId}`,
        );
      }
      return this.deleteCopies(m, [copy]);
    });
    await this.managedKeys.afterCommit(limits);
    return {
      message: 'Access profile removed from user',
      deleted_vk_names: names,
      deleted_vk_count: names.length,
    };
  }

  /**
   * Deletes copies and their keys inside the caller's transaction; returns the keys' names and the limits whose
   * counters the caller resets after the commit (ManagedKeyWriter.afterCommit).
   */
  async deleteCopies(
    m: EntityManager,
    copies: readonly AccessProfileCopyEntity[],
  ): Promise<{ names: string[]; limits: RemovedLimits }> {
    if (!copies.length) return { names: [], limits: { budgetIds: [], rateLimitIds: [] } };
    const ids = copies.map((c) => c.id);
    const removed = await this.keys.deleteManaged(m, ids);
    await m.delete(AccessProfileCopyEntity, { id: In(ids) });
    return removed;
  }

  private async user(m: EntityManager, userId: string): Promise<UserEntity> {
    const user = isId(userId) ? await m.findOneBy(UserEntity, { id: userId }) : null;
    if (!user) throw GatewayException.notFound('user', `User ${userId} not found`);
    return user;
  }

  static toView(
    copy: AccessProfileCopyEntity,
    keys: ReadonlyArray<{ id: string; value_hint: string }>,
  ): AccessProfileCopyDto {
    return {
      id: copy.id,
      user_id: copy.user_id,
      parent_profile_id: copy.parent_profile_id,
      name: copy.name,
      is_active: copy.is_active,
      expires_at: copy.expires_at?.toISOString() ?? null,
      assigned_via: copy.assigned_via,
      role_id: copy.role_id,
      virtual_key_ids: keys.map((k) => k.id),
      virtual_key_values: keys.map((k) => k.value_hint),
      created_at: copy.created_at.toISOString(),
      updated_at: copy.updated_at.toISOString(),
    };
  }
}
