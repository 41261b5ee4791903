import { Injectable, type OnModuleInit } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import {
  UserRoleListeners,
  type AfterUserRoleCommit,
  type UserRoleChange,
  type RemovedLimits,
} from '../../governance/index.js';
import { AccessProfileCopiesService, mergeLimits } from '../copies/access-profile-copies.service.js';
import { AccessProfileCopyEntity } from '../entities/access-profile-copy.entity.js';
import { AccessProfileRoleEntity } from '../entities/access-profile-role.entity.js';
import { AccessProfileEntity } from '../entities/access-profile.entity.js';
import { ManagedKeyWriter } from '../managed-key.writer.js';

/**
 * A user created with a role, or moved to another, gets copies of the role's default profiles (the active ones) and
 * loses the copies their previous role gave them. Direct assignments are never touched; a role copy of a profile the
 * new role also defaults to stays (with its key and usage) and is re-attributed to the new role. Runs inside the
 * transaction that saves the user (registered with governance's UserRoleListeners, so governance never imports this
 * module).
 */
@Injectable()
export class RoleDefaultProfiles implements OnModuleInit {
  constructor(
    private readonly listeners: UserRoleListeners,
    private readonly copies: AccessProfileCopiesService,
    private readonly managedKeys: ManagedKeyWriter,
  ) {}

  onModuleInit(): void {
    this.listeners.register((m, change) => this.apply(m, change));
  }

  private async apply(m: EntityManager, change: UserRoleChange): Promise<AfterUserRoleCommit | undefined> {
    const defaults = new Set(
      (await m.findBy(AccessProfileRoleEntity, { role_id: change.role_id, is_default: true })).map(
        (a) => a.access_profile_id,
      ),
    );
    const held =
      change.previous_role_id === null ? [] : await m.findBy(AccessProfileCopyEntity, { user_id: change.user_id });
    const roleCopies = held.filter((c) => c.assigned_via === 'role');
    const stale = roleCopies.filter((c) => !defaults.has(c.parent_profile_id));
    const kept = roleCopies.filter((c) => defaults.has(c.parent_profile_id)).map((c) => c.id);
    const heldProfiles = new Set(held.filter((c) => !stale.includes(c)).map((c) => c.parent_profile_id));
    const missing = [...defaults].filter((id) => !heldProfiles.has(id));
    if (!stale.length && !kept.length && !missing.length) return undefined;

    const toReset: RemovedLimits = (await this.copies.deleteCopies(m, stale)).limits;
    if (kept.length) await m.update(AccessProfileCopyEntity, { id: In(kept) }, { role_id: change.role_id });
    const profiles = missing.length
      ? await m.find(AccessProfileEntity, { where: { id: In(missing), is_active: true }, order: { id: 'ASC' } })
      : [];
    const user = { id: change.user_id, email: change.email };
    for (const profile of profiles) {
      const created = await this.copies.createCopy(m, user, profile, { kind: 'role', roleId: change.role_id });
      mergeLimits(toReset, created.toReset);
    }
    return () => this.managedKeys.afterCommit(toReset);
  }
}
