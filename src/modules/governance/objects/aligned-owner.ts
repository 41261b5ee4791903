import type { EntityManager } from 'typeorm';
import type { OwnerLimitsUpdateDto } from './dto/owner-input.dto.js';
import { BudgetEntity } from './entities/budget.entity.js';
import type { LimitsStore, Owner, RemovedLimits } from './limits.store.js';

/**
 * Writes the limits of an owner with a default calendar alignment (provider governance, model configs): budgets
 * without their own `calendar_aligned` take the owner's; a changed owner alignment sent without budgets applies to
 * the stored ones. Returns the counters to reset after the commit (removed objects, and everything on `reset_usage`).
 */
export async function writeAlignedOwnerLimits(
  m: EntityManager,
  limits: LimitsStore,
  owner: Owner,
  dto: OwnerLimitsUpdateDto,
  aligned: boolean,
  alignmentChanged: boolean,
): Promise<RemovedLimits> {
  const out: RemovedLimits = { budgetIds: [], rateLimitIds: [] };
  if (dto.budgets) out.budgetIds = await limits.replaceBudgets(m, owner, dto.budgets, aligned);
  else if (alignmentChanged) await m.update(BudgetEntity, { [owner.column]: owner.id }, { calendar_aligned: aligned });
  if (dto.rate_limit !== undefined) out.rateLimitIds = await limits.setRateLimit(m, owner, dto.rate_limit);
  if (dto.reset_usage) {
    const all = await limits.idsOf(m, owner);
    await limits.markReset(m, all.budgetIds);
    out.budgetIds.push(...all.budgetIds);
    out.rateLimitIds.push(...all.rateLimitIds);
  }
  return out;
}
