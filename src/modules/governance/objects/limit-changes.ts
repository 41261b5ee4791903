import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { bulkInsert, bulkUpdate } from '../../../core/persistence/bulk-write.js';
import { resetDurationMs } from '../limits/governed-levels.js';
import { BudgetEntity } from './entities/budget.entity.js';
import type { OwnerColumn } from './entities/owner-columns.js';
import { RateLimitEntity } from './entities/rate-limit.entity.js';
import type { BudgetInput, RateLimitInput } from './limits.js';

/** Who holds a budget or rate limit: one owner column and its value. */
export interface Owner {
  column: OwnerColumn;
  id: string;
}

/** The stored budgets and rate limit of one owner. */
export interface StoredLimits {
  budgets: BudgetEntity[];
  rateLimit: RateLimitEntity | null;
}

type BudgetFields = Pick<BudgetEntity, 'max_limit' | 'reset_duration' | 'calendar_aligned'>;
type RateLimitFields = Pick<
  RateLimitEntity,
  'request_max_limit' | 'request_reset_duration' | 'token_max_limit' | 'token_reset_duration'
>;

type OwnerRef = Partial<Pick<BudgetEntity, OwnerColumn>>;
const ownerRef = (owner: Owner) => ({ [owner.column]: owner.id }) as OwnerRef;

const BUDGET_COLUMNS = { max_limit: 'double precision', reset_duration: 'varchar', calendar_aligned: 'boolean' };
const RATE_LIMIT_COLUMNS = {
  request_max_limit: 'bigint',
  request_reset_duration: 'varchar',
  token_max_limit: 'bigint',
  token_reset_duration: 'varchar',
};

const windowsOf = (r: Pick<RateLimitEntity, 'request_reset_duration' | 'token_reset_duration'>): string =>
  `${r.request_reset_duration ?? ''}|${r.token_reset_duration ?? ''}`;

/**
 * Budget and rate-limit changes of any number of owners, computed in memory from their stored rows (`budgets`,
 * `rateLimit`) and written with a handful of statements (`apply`, inside the caller's transaction). One owner's
 * write (LimitsStore.replaceBudgets / setRateLimit) and a batch of keys (VirtualKeyPolicyWriter.writeMany) share it.
 */
export class LimitChanges {
  private readonly budgetInserts: (BudgetFields & { id: string; last_reset: Date } & OwnerRef)[] = [];
  private readonly budgetUpdates: (BudgetFields & { id: string })[] = [];
  private readonly budgetDeletes: string[] = [];
  private readonly rateLimitInserts: (RateLimitFields & { id: string } & OwnerRef)[] = [];
  private readonly rateLimitUpdates: (RateLimitFields & { id: string })[] = [];
  private readonly rateLimitDeletes: string[] = [];

  /**
   * Makes the owner's budgets exactly `inputs`. A budget whose window length matches a stored one keeps its id, and
   * so its usage; the others are removed or created. Returns the removed ids and the ids held afterwards.
   */
  budgets(
    owner: Owner,
    stored: readonly BudgetEntity[],
    inputs: readonly BudgetInput[],
    defaultAligned: boolean,
  ): { removed: string[]; held: string[] } {
    const byLength = new Map(stored.map((b) => [resetDurationMs(b.reset_duration), b]));
    const kept = new Set<string>();
    const held: string[] = [];
    for (const input of inputs) {
      const existing = byLength.get(resetDurationMs(input.reset_duration));
      const fields = {
        max_limit: input.max_limit,
        reset_duration: input.reset_duration,
        calendar_aligned: input.calendar_aligned ?? defaultAligned,
      };
      if (existing) {
        kept.add(existing.id);
        held.push(existing.id);
        this.budgetUpdates.push({ id: existing.id, ...fields });
      } else {
        const id = randomUUID();
        held.push(id);
        this.budgetInserts.push({ id, ...fields, last_reset: new Date(), ...ownerRef(owner) });
      }
    }
    const removed = stored.filter((b) => !kept.has(b.id)).map((b) => b.id);
    this.budgetDeletes.push(...removed);
    return { removed, held: [...new Set(held)] };
  }

  /**
   * Sets (same id, usage kept) or removes (`null`) the owner's rate limit. Returns the removed id, the id held
   * afterwards and whether a kept one changed its windows (its counters then start again).
   */
  rateLimit(
    owner: Owner,
    stored: RateLimitEntity | null,
    input: RateLimitInput | null,
  ): { removed: string[]; held: string | null; windowsChanged: boolean } {
    if (input === null) {
      if (!stored) return { removed: [], held: null, windowsChanged: false };
      this.rateLimitDeletes.push(stored.id);
      return { removed: [stored.id], held: null, windowsChanged: false };
    }
    const fields = {
      request_max_limit: input.request_max_limit ?? null,
      request_reset_duration: input.request_reset_duration ?? null,
      token_max_limit: input.token_max_limit ?? null,
      token_reset_duration: input.token_reset_duration ?? null,
    };
    if (stored) {
      this.rateLimitUpdates.push({ id: stored.id, ...fields });
      return { removed: [], held: stored.id, windowsChanged: windowsOf(stored) !== windowsOf(fields) };
    }
    const id = randomUUID();
    this.rateLimitInserts.push({ id, ...fields, ...ownerRef(owner) });
    return { removed: [], held: id, windowsChanged: false };
  }

  /** Writes the changes: deletes, then updates, then inserts (at most two statements each, per table). */
  async apply(m: EntityManager): Promise<void> {
    if (this.budgetDeletes.length) await m.delete(BudgetEntity, { id: In(this.budgetDeletes) });
    if (this.rateLimitDeletes.length) await m.delete(RateLimitEntity, { id: In(this.rateLimitDeletes) });
    await bulkUpdate(m, 'budgets', 'uuid', BUDGET_COLUMNS, this.budgetUpdates);
    await bulkUpdate(m, 'rate_limits', 'uuid', RATE_LIMIT_COLUMNS, this.rateLimitUpdates);
    await bulkInsert(m, BudgetEntity, this.budgetInserts);
    await bulkInsert(m, RateLimitEntity, this.rateLimitInserts);
  }
}

/** The stored budgets and rate limits of many owners of one kind (two queries), by owner id. */
export async function storedLimitsOf(
  m: EntityManager,
  column: OwnerColumn,
  ids: readonly string[],
): Promise<Map<string, StoredLimits>> {
  const out = new Map<string, StoredLimits>(ids.map((id) => [id, { budgets: [], rateLimit: null }]));
  if (!ids.length) return out;
  const where = { [column]: In([...new Set(ids)]) };
  const [budgets, limits] = await Promise.all([
    m.find(BudgetEntity, { where, order: { created_at: 'ASC', id: 'ASC' } }),
    m.find(RateLimitEntity, { where }),
  ]);
  for (const b of budgets) out.get(b[column] as string)?.budgets.push(b);
  for (const r of limits) {
    const entry = out.get(r[column] as string);
    if (entry) entry.rateLimit = r;
  }
  return out;
}
