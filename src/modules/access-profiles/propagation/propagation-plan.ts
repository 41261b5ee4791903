import { isDeepStrictEqual } from 'node:util';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { profileFieldsOf, type ProfileFields, type PropagationField } from '../access-profile-fields.js';
import { assertProfileFields } from '../profile-fields.rules.js';
import type { PropagationOutcome } from './entities/access-profile-propagation-user.entity.js';

/** What a propagation does to one selected user's copy. */
export type CopyPlan =
  | { outcome: 'skipped'; message: string }
  | { outcome: 'failed'; message: string }
  | { outcome: 'affected'; fields: ProfileFields };

export interface PlanOptions {
  fields: readonly PropagationField[];
  resetUsage: boolean;
}

/**
 * The plan for one copy (null: the user holds none). The chosen fields are taken from the template, the others kept;
 * the result must pass the profile rules (a `provider:X` budget needs X among the copy's provider configs), else the
 * user fails and nothing of theirs changes. A copy already equal on the chosen fields is skipped, unless usage is to
 * be reset (then its keys are rewritten with zeroed counters).
 */
export function planCopy(template: ProfileFields, copy: ProfileFields | null, options: PlanOptions): CopyPlan {
  if (!copy) return { outcome: 'skipped', message: 'holds no copy of the profile' };
  const current = profileFieldsOf(copy);
  const next = profileFieldsOf(copy);
  const source = profileFieldsOf(template);
  for (const field of options.fields) (next as unknown as Record<string, unknown>)[field] = source[field];
  if (!options.resetUsage && options.fields.every((f) => isDeepStrictEqual(current[f], next[f]))) {
    return { outcome: 'skipped', message: 'copy already matches the template on the chosen fields' };
  }
  try {
    assertProfileFields(next);
  } catch (error) {
    if (error instanceof GatewayException) return { outcome: 'failed', message: error.message };
    throw error;
  }
  return { outcome: 'affected', fields: next };
}

/** Counts of outcomes, in the result's terms. */
export function countOutcomes(outcomes: Iterable<PropagationOutcome>): Record<PropagationOutcome, number> {
  const counts: Record<PropagationOutcome, number> = { affected: 0, failed: 0, skipped: 0 };
  for (const o of outcomes) counts[o]++;
  return counts;
}
