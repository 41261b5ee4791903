import type { EntityManager } from 'typeorm';
import { AccessProfileVersionEntity } from '../entities/access-profile-version.entity.js';
import type { AccessProfileDto } from './dto/access-profile.dto.js';
import type { AccessProfileVersionDto } from './dto/access-profile-version.dto.js';

/**
 * Stores the version a change produced, inside the change's transaction (a failed change leaves no version). The
 * unique (access_profile_id, version) index is the backstop: the writers hold the template's row lock.
 */
export async function recordProfileVersion(
  m: EntityManager,
  view: AccessProfileDto,
  changedBy: string | null,
): Promise<void> {
  await m.insert(AccessProfileVersionEntity, {
    access_profile_id: view.id,
    version: view.version,
    name: view.name,
    description: view.description,
    snapshot: JSON.stringify(view),
    changed_by: changedBy,
  });
}

export function profileVersionView(row: AccessProfileVersionEntity): AccessProfileVersionDto {
  return {
    id: row.id,
    access_profile_id: row.access_profile_id,
    version: row.version,
    name: row.name,
    description: row.description,
    snapshot: row.snapshot,
    changed_by: row.changed_by,
    created_at: row.created_at.toISOString(),
  };
}
