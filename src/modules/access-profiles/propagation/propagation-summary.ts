import type { PropagationField } from '../access-profile-fields.js';
import type { AccessProfilePropagationUserEntity } from './entities/access-profile-propagation-user.entity.js';
import type { PropagationResult } from './entities/access-profile-propagation.entity.js';
import { countOutcomes } from './propagation-plan.js';

type Outcome = Pick<AccessProfilePropagationUserEntity, 'user_id' | 'outcome' | 'key_synced' | 'message'>;

/**
 * The Propagation result from users' outcomes: every selected user counts once (affected, failed or skipped);
 * `user_ids` lists the affected; an affected user whose managed keys were not rewritten adds a `vk_sync_errors` entry.
 */
export function summarise(
  fields: PropagationField[],
  outcomes: readonly Outcome[],
  applied: boolean,
): PropagationResult {
  const counts = countOutcomes(outcomes.map((o) => o.outcome));
  const affected = outcomes.filter((o) => o.outcome === 'affected');
  return {
    affected_users: counts.affected,
    failed_users: counts.failed,
    skipped_users: counts.skipped,
    user_ids: affected.map((o) => o.user_id).sort(),
    fields: [...fields],
    applied,
    vk_sync_errors: applied
      ? affected
          .filter((o) => !o.key_synced)
          .map((o) => `user ${o.user_id}: ${o.message ?? 'managed key sync did not complete'}`)
      : [],
  };
}
