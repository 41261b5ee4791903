import { Injectable } from '@nestjs/common';
import type { CounterState, CounterWindow } from '../../../core/redis/counter.store.js';
import type { QuotaBudgetDto, QuotaRateLimitDto, VirtualKeyQuotaDto } from './dto/quota.dto.js';
import { GovernanceEnforcer } from './governance-enforcer.js';
import {
  budgetCounterKey,
  requestCounterKey,
  tokenCounterKey,
  type GovernedLevel,
  type LimitWindow,
} from './governed-levels.js';
import { isPending } from '../../../core/async/maybe-promise.js';

const iso = (epochMs: number) => new Date(epochMs).toISOString();

/**
 * The quota view of a virtual key: the levels covering it (its provider configs, the key, its team and customers,
 * the provider governance of the providers it lists) with each counter read once, in parallel.
 */
@Injectable()
export class QuotaReader {
  constructor(private readonly enforcer: GovernanceEnforcer) {}

  async read(virtualKeyId: string, name: string): Promise<VirtualKeyQuotaDto> {
    const current = this.enforcer.snapshot();
    const snapshot = isPending(current) ? await current : current;
    const policy = snapshot.virtualKey(virtualKeyId);
    const levels: GovernedLevel[] = [];
    const seen = new Set<string>();
    const add = (level: GovernedLevel | undefined) => {
      const id = `${level?.kind}:${level?.id}`;
      if (!level || seen.has(id) || (level.budgets.length === 0 && !level.rateLimit)) return;
      seen.add(id);
      levels.push(level);
    };
    if (policy) {
      for (const config of policy.providerConfigs) add(config.level);
      add(policy.level);
      add(policy.team);
      for (const customer of policy.customers) add(customer);
      for (const config of policy.providerConfigs) add(snapshot.provider(config.provider));
    }
    const budgets: Array<Promise<QuotaBudgetDto>> = [];
    const rateLimits: Array<Promise<QuotaRateLimitDto>> = [];
    for (const level of levels) {
      const owner = { level: level.kind, level_id: level.id, level_name: level.name };
      for (const budget of level.budgets) {
        budgets.push(
          this.state(budgetCounterKey(budget.id), budget.window).then((state) => ({
            id: budget.id,
            ...owner,
            max_limit: budget.limit,
            reset_duration: budget.resetDuration,
            current_usage: state.value,
            reserved: state.reserved,
            reset_at: iso(state.resetAt),
          })),
        );
      }
      const rl = level.rateLimit;
      if (rl) {
        rateLimits.push(
          Promise.all([
            this.window(requestCounterKey(rl.id), rl.requests),
            this.window(tokenCounterKey(rl.id), rl.tokens),
          ]).then(([requests, tokens]) => ({
            id: rl.id,
            ...owner,
            request_max_limit: rl.requests?.limit ?? null,
            request_reset_duration: rl.requests?.resetDuration ?? null,
            request_current_usage: requests ? requests.value + requests.reserved : null,
            request_reset_at: requests ? iso(requests.resetAt) : null,
            token_max_limit: rl.tokens?.limit ?? null,
            token_reset_duration: rl.tokens?.resetDuration ?? null,
            token_current_usage: tokens ? tokens.value + tokens.reserved : null,
            token_reset_at: tokens ? iso(tokens.resetAt) : null,
          })),
        );
      }
    }
    return {
      virtual_key_id: virtualKeyId,
      name,
      budgets: await Promise.all(budgets),
      rate_limits: await Promise.all(rateLimits),
    };
  }

  private window(key: string, window: LimitWindow | undefined): Promise<CounterState | undefined> {
    return window ? this.state(key, window.window) : Promise.resolve(undefined);
  }

  private state(key: string, window: CounterWindow): Promise<CounterState> {
    return this.enforcer.read(key, window);
  }
}
