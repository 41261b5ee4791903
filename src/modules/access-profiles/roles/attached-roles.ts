import type { EntityManager } from 'typeorm';
import { RoleEntity } from '../../governance/index.js';
import { AccessProfileRoleEntity } from '../entities/access-profile-role.entity.js';
import type { AccessProfileRoleDto } from '../templates/dto/access-profile.dto.js';

/** The roles attached to a profile, with their names, in attachment order (the template GET's `roles`). */
export async function attachedRoles(m: EntityManager, profileId: number): Promise<AccessProfileRoleDto[]> {
  const rows = await m
    .createQueryBuilder(AccessProfileRoleEntity, 'ar')
    .innerJoin(RoleEntity, 'r', 'r.id = ar.role_id')
    .select(['ar.id AS id', 'ar.role_id AS role_id', 'ar.is_default AS is_default', 'r.name AS role_name'])
    .where('ar.access_profile_id = :profileId', { profileId })
    .orderBy('ar.created_at', 'ASC')
    .addOrderBy('ar.id', 'ASC')
    .getRawMany<{ id: number; role_id: string; is_default: boolean; role_name: string }>();
  return rows.map((r) => ({
    id: Number(r.id),
    access_profile_id: profileId,
    role_id: r.role_id,
    role_name: r.role_name,
    is_default: r.is_default,
  }));
}
