import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { CounterStore } from '../../../core/redis/counter.store.js';
import { calendarPeriod } from '../../../core/redis/counter-window.js';
import { budgetCounterKey, requestCounterKey, resetDurationMs, tokenCounterKey } from '../limits/governed-levels.js';
import type { BudgetViewDto, RateLimitViewDto } from './dto/limits.dto.js';
import { BudgetEntity } from './entities/budget.entity.js';
import type { OwnerColumn } from './entities/owner-columns.js';
import { RateLimitEntity } from './entities/rate-limit.entity.js';
import { LimitChanges, type Owner } from './limit-changes.js';
import { activeOverride, budgetWindow, rateLimitWindow, type BudgetInput, type RateLimitInput } from './limits.js';

export type { Owner };

export interface OwnerLimits {
  budgets: BudgetViewDto[];
  rate_limit: RateLimitViewDto | null;
}

/** Ids whose counters should be forgotten once the change is committed. */
export interface RemovedLimits {
  budgetIds: string[];
  rateLimitIds: string[];
}

/**
 * Writes the budgets and rate limits of any owner (inside the caller's transaction) and shows them with the usage the
 * request path charged (CounterStore, the same keys and windows enforcement uses).
 */
@Injectable()
export class LimitsStore {
  constructor(private readonly counters: CounterStore) {}

  /**
   * Makes the owner's budgets exactly `inputs`. A budget whose window length matches a stored one keeps its id, and
   * so its usage; the others are removed (their ids returned) or created.
   */
  async replaceBudgets(
    m: EntityManager,
    owner: Owner,
    inputs: readonly BudgetInput[],
    defaultAligned: boolean,
  ): Promise<string[]> {
    const stored = await m.find(BudgetEntity, { where: { [owner.column]: owner.id } });
    const changes = new LimitChanges();
    const { removed } = changes.budgets(owner, stored, inputs, defaultAligned);
    await changes.apply(m);
    return removed;
  }

  /** Sets (same id, usage kept) or removes (`null`) the owner's rate limit; returns the removed id, if any. */
  async setRateLimit(m: EntityManager, owner: Owner, input: RateLimitInput | null): Promise<string[]> {
    const stored = await m.findOneBy(RateLimitEntity, { [owner.column]: owner.id });
    const changes = new LimitChanges();
    const { removed } = changes.rateLimit(owner, stored, input);
    await changes.apply(m);
    return removed;
  }

  /** The first budgets and rate limit of an owner inserted in this transaction (nothing stored to read first). */
  async writeNew(
    m: EntityManager,
    owner: Owner,
    input: { budgets?: readonly BudgetInput[]; rate_limit?: RateLimitInput | null },
    defaultAligned: boolean,
  ): Promise<void> {
    const changes = new LimitChanges();
    if (input.budgets) changes.budgets(owner, [], input.budgets, defaultAligned);
    if (input.rate_limit) changes.rateLimit(owner, null, input.rate_limit);
    await changes.apply(m);
  }

  /** Budgets and rate limits of many owners of one kind, by owner id. */
  async loadMany(m: EntityManager, column: OwnerColumn, ids: readonly string[]): Promise<Map<string, OwnerLimits>> {
    const out = new Map<string, OwnerLimits>(ids.map((id) => [id, { budgets: [], rate_limit: null }]));
    if (!ids.length) return out;
    const [budgets, limits] = await Promise.all([
      m.find(BudgetEntity, { where: { [column]: In([...ids]) }, order: { created_at: 'ASC', id: 'ASC' } }),
      m.find(RateLimitEntity, { where: { [column]: In([...ids]) } }),
    ]);
    // Shortest window first.
    budgets.sort((a, b) => resetDurationMs(a.reset_duration)! - resetDurationMs(b.reset_duration)!);
    const budgetViews = await Promise.all(budgets.map((b) => this.budgetView(b)));
    budgets.forEach((b, i) => out.get(b[column] as string)?.budgets.push(budgetViews[i]!));
    for (const limit of limits) {
      const entry = out.get(limit[column] as string);
      if (entry) entry.rate_limit = await this.rateLimitView(limit);
    }
    return out;
  }

  async load(m: EntityManager, owner: Owner): Promise<OwnerLimits> {
    return (await this.loadMany(m, owner.column, [owner.id])).get(owner.id)!;
  }

  async budgetView(budget: BudgetEntity): Promise<BudgetViewDto> {
    const window = budgetWindow(budget);
    const now = Date.now();
    const state = await this.counters.get(budgetCounterKey(budget.id), window);
    // A fixed window runs from its first charge; without one running, the last reset is the stored one.
    const running = state.value > 0 || state.reserved > 0;
    const windowStart =
      window.kind === 'calendar'
        ? calendarPeriod(window.unit, now, window.quarterStartMonth).start
        : running && window.kind === 'fixed'
          ? Math.min(now, state.resetAt - window.ms)
          : 0;
    const override = activeOverride(budget, now);
    return {
      id: budget.id,
      max_limit: budget.max_limit,
      reset_duration: budget.reset_duration,
      calendar_aligned: budget.calendar_aligned,
      current_usage: state.value,
      last_reset: new Date(Math.max(windowStart, budget.last_reset.getTime())).toISOString(),
      effective_max_limit: budget.max_limit + override,
      override:
        override && budget.override_mode
          ? {
              amount: override,
              mode: budget.override_mode,
              cycles: budget.override_cycles,
              expires_at: budget.override_expires_at?.toISOString() ?? null,
            }
          : null,
    };
  }

  async rateLimitView(limit: RateLimitEntity): Promise<RateLimitViewDto> {
    const usage = async (key: string, duration: string | null) =>
      duration === null ? 0 : (await this.counters.get(key, rateLimitWindow(duration))).value;
    return {
      id: limit.id,
      request_max_limit: limit.request_max_limit,
      request_reset_duration: limit.request_reset_duration,
      token_max_limit: limit.token_max_limit,
      token_reset_duration: limit.token_reset_duration,
      request_current_usage: await usage(requestCounterKey(limit.id), limit.request_reset_duration),
      token_current_usage: await usage(tokenCounterKey(limit.id), limit.token_reset_duration),
    };
  }

  /** Every budget and rate limit id an owner holds (for `reset_usage`). */
  async idsOf(m: EntityManager, owner: Owner): Promise<RemovedLimits> {
    const where = { [owner.column]: owner.id };
    const [budgets, limits] = await Promise.all([
      m.find(BudgetEntity, { select: { id: true }, where }),
      m.find(RateLimitEntity, { select: { id: true }, where }),
    ]);
    return { budgetIds: budgets.map((b) => b.id), rateLimitIds: limits.map((r) => r.id) };
  }

  /** Inside the transaction of a `reset_usage`: the budgets' windows start again now. */
  async markReset(m: EntityManager, budgetIds: readonly string[]): Promise<void> {
    if (budgetIds.length) await m.update(BudgetEntity, { id: In([...budgetIds]) }, { last_reset: new Date() });
  }

  /** Zeroes the counters of these budgets and rate limits (after a commit: `reset_usage`, or removed objects). */
  async resetCounters(limits: RemovedLimits): Promise<void> {
    const keys = [
      ...limits.budgetIds.map(budgetCounterKey),
      ...limits.rateLimitIds.flatMap((id) => [requestCounterKey(id), tokenCounterKey(id)]),
    ];
    await Promise.all(keys.map((key) => this.counters.reset(key)));
  }
}
