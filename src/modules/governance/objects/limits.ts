import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { CounterWindow } from '../../../core/redis/counter.store.js';
import {
  counterWindowOf,
  parseResetDuration,
  resetDurationMs,
  type BudgetRule,
  type RateLimitRule,
} from '../limits/governed-levels.js';
import type { BudgetEntity } from './entities/budget.entity.js';
import type { RateLimitEntity } from './entities/rate-limit.entity.js';

const MINUTE_MS = 60_000;
const YEAR_MS = 365 * 86_400_000;
const DURATION_HELP = 'from 1m to 1Y (units m, h, d, w, M, Q, Y; m minutes, M months)';

function durationProblem(value: unknown, quarters: boolean): string | undefined {
  if (typeof value !== 'string') return ' must be a string';
  const parsed = parseResetDuration(value);
  const ms = resetDurationMs(value);
  if (!parsed || ms === undefined || parsed.unit === 's' || ms < MINUTE_MS || ms > YEAR_MS) {
    return ` must be a duration ${DURATION_HELP}`;
  }
  if (parsed.unit === 'Q' && !quarters) return ' must not be in quarters (Q is for budgets only)';
  return undefined;
}

/** Why a budget's `reset_duration` is refused (appended to the field name), or undefined. */
export const budgetDurationProblem = (value: unknown) => durationProblem(value, true);
/** Rate-limit windows: the same range, without quarters. */
export const rateLimitDurationProblem = (value: unknown) => durationProblem(value, false);

/** The counter window of a stored budget (the one enforcement charges). */
export function budgetWindow(budget: Pick<BudgetEntity, 'reset_duration' | 'calendar_aligned'>): CounterWindow {
  return counterWindowOf(budget.reset_duration, budget.calendar_aligned);
}

/** Rate-limit windows are never calendar-aligned. */
export function rateLimitWindow(resetDuration: string): CounterWindow {
  return counterWindowOf(resetDuration, false);
}

/** The override raising a budget now, if any. */
export function activeOverride(budget: BudgetEntity, now = Date.now()): number {
  if (budget.override_amount === null) return 0;
  if (budget.override_expires_at !== null && budget.override_expires_at.getTime() <= now) return 0;
  return budget.override_amount;
}

export function budgetRule(budget: BudgetEntity, now = Date.now()): BudgetRule {
  return {
    id: budget.id,
    limit: budget.max_limit + activeOverride(budget, now),
    resetDuration: budget.reset_duration,
    window: budgetWindow(budget),
  };
}

export function rateLimitRule(limit: RateLimitEntity): RateLimitRule {
  const rule: RateLimitRule = { id: limit.id };
  if (limit.request_max_limit !== null && limit.request_reset_duration !== null) {
    rule.requests = {
      limit: limit.request_max_limit,
      resetDuration: limit.request_reset_duration,
      window: rateLimitWindow(limit.request_reset_duration),
    };
  }
  if (limit.token_max_limit !== null && limit.token_reset_duration !== null) {
    rule.tokens = {
      limit: limit.token_max_limit,
      resetDuration: limit.token_reset_duration,
      window: rateLimitWindow(limit.token_reset_duration),
    };
  }
  return rule;
}

export interface BudgetInput {
  max_limit: number;
  reset_duration: string;
  calendar_aligned?: boolean;
}

export interface RateLimitInput {
  request_max_limit?: number | null;
  request_reset_duration?: string | null;
  token_max_limit?: number | null;
  token_reset_duration?: string | null;
}

/** One owner's budgets: no two with windows of the same length (`1h` and `60m` overlap). 400 naming the field. */
export function assertBudgets(budgets: readonly BudgetInput[], param: string): void {
  const seen = new Map<number, number>();
  budgets.forEach((budget, i) => {
    const ms = resetDurationMs(budget.reset_duration)!;
    const first = seen.get(ms);
    if (first !== undefined) {
      throw GatewayException.validation(
        `${param}[${i}].reset_duration`,
        `${param}[${i}].reset_duration ${budget.reset_duration} overlaps ${param}[${first}].reset_duration ${budgets[first]!.reset_duration}: one budget per window length`,
      );
    }
    seen.set(ms, i);
  });
}

/** A rate limit sets at least one limit, each with its window. 400 naming the field. */
export function assertRateLimit(limit: RateLimitInput, param: string): void {
  const pairs = [
    ['request_max_limit', 'request_reset_duration'],
    ['token_max_limit', 'token_reset_duration'],
  ] as const;
  let set = 0;
  for (const [max, duration] of pairs) {
    const hasMax = limit[max] !== undefined && limit[max] !== null;
    const hasDuration = limit[duration] !== undefined && limit[duration] !== null;
    if (hasMax !== hasDuration) {
      const missing = hasMax ? duration : max;
      throw GatewayException.validation(
        `${param}.${missing}`,
        `${param}.${missing} is required with ${param}.${hasMax ? max : duration}`,
      );
    }
    if (hasMax) set++;
  }
  if (set === 0) {
    throw GatewayException.validation(
      param,
      `${param} must set request_max_limit with request_reset_duration, or token_max_limit with token_reset_duration (send null to remove it)`,
    );
  }
}
