import { In, type EntityManager } from 'typeorm';
import { UserEntity } from '../../governance/index.js';
import { AccessProfileCopyEntity } from '../entities/access-profile-copy.entity.js';
import type { PropagationRequest } from './entities/access-profile-propagation.entity.js';

/**
 * The users a propagation is about, sorted: every holder of a copy when neither selector is given; otherwise the
 * union of `user_ids` and the members of the `group_ids` teams (users whose `team_id` is listed), holders or not —
 * a selected user without a copy counts as skipped.
 */
export async function selectUsers(
  m: EntityManager,
  profileId: number,
  request: Pick<PropagationRequest, 'user_ids' | 'group_ids'>,
): Promise<string[]> {
  const selected = new Set<string>();
  if (request.user_ids.length === 0 && request.group_ids.length === 0) {
    const holders = await m.find(AccessProfileCopyEntity, {
      select: { user_id: true },
      where: { parent_profile_id: profileId },
    });
    for (const h of holders) selected.add(h.user_id);
  } else {
    for (const id of request.user_ids) selected.add(id.toLowerCase());
    if (request.group_ids.length) {
      const members = await m.find(UserEntity, { select: { id: true }, where: { team_id: In(request.group_ids) } });
      for (const u of members) selected.add(u.id);
    }
  }
  return [...selected].sort();
}
