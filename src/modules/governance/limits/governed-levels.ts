import type { ProviderId } from '../../inference/index.js';
import type { CalendarUnit, CounterWindow } from '../../../core/redis/counter.store.js';

/**
 * What the request path knows about governance, as plain data: the meeting point of the governance objects (stored
 * and edited through `/api/governance/*`, which build this view) and the enforcement (which reads it on every
 * request and never the database). Counters live in the core's CounterStore under the keys named here, so the
 * management API shows the same usage the request path checks.
 */

/** Where a budget or rate limit hangs; a request checks every level that covers it. */
export type LevelKind = 'provider_config' | 'virtual_key' | 'team' | 'customer' | 'provider' | 'model_config';

/** Human names of the levels, for refusal messages ("team 'research' budget exceeded: …"). */
export const LEVEL_NAMES: Record<LevelKind, string> = {
  provider_config: 'provider config',
  virtual_key: 'virtual key',
  team: 'team',
  customer: 'customer',
  provider: 'provider',
  model_config: 'model config',
};

export interface BudgetRule {
  id: string;
  /** USD; with an active override, `max_limit + override amount`. */
  limit: number;
  /** As written by the caller (`1d`, `1M`, `1Q`), for messages and headers. */
  resetDuration: string;
  window: CounterWindow;
}

export interface LimitWindow {
  limit: number;
  resetDuration: string;
  window: CounterWindow;
}

export interface RateLimitRule {
  id: string;
  requests?: LimitWindow;
  tokens?: LimitWindow;
}

export interface GovernedLevel {
  kind: LevelKind;
  id: string;
  /** The owner's name (a provider config: its provider id). */
  name: string;
  budgets: readonly BudgetRule[];
  rateLimit?: RateLimitRule;
}

export interface ProviderConfigPolicy {
  provider: ProviderId;
  /** Null: never picked by weighted selection, still usable when the model names the provider. */
  weight: number | null;
  /** `['*']`: every model; `[]`: none. */
  allowedModels: readonly string[];
  /** Wins over `allowedModels`. */
  blacklistedModels: readonly string[];
  /** `'*'`: every key of the provider; a list: only those keys; `[]`: none. */
  keyIds: '*' | readonly string[];
  level: GovernedLevel;
}

export interface VirtualKeyPolicy {
  id: string;
  name: string;
  /** Empty: every configured provider and model; else only what they list. */
  providerConfigs: readonly ProviderConfigPolicy[];
  level: GovernedLevel;
  team?: GovernedLevel;
  /** The key's own customer, or every customer its team is linked to. */
  customers: readonly GovernedLevel[];
}

/** An immutable view of every governed object, rebuilt on change (here and, through the invalidation bus, on every replica). */
export interface GovernanceSnapshot {
  /** Undefined for an unknown id. */
  virtualKey(id: string): VirtualKeyPolicy | undefined;
  /** Provider governance (`/api/governance/providers/{provider}`), when set. */
  provider(provider: ProviderId): GovernedLevel | undefined;
  /**
   * Model configs covering `model` on `provider` for this key: global ones (model exact or `*`, provider equal or
   * unset) then those scoped to the key.
   */
  modelConfigs(model: string, provider: ProviderId, virtualKeyId: string | undefined): readonly GovernedLevel[];
}

/** Injected by this class; implemented by the governance objects module. Answers synchronously once built. */
export abstract class GovernancePolicies {
  abstract snapshot(): GovernanceSnapshot | Promise<GovernanceSnapshot>;
}

/** Counter keys (CounterStore) of budgets and rate limits. */
export const budgetCounterKey = (budgetId: string): string => `budget:${budgetId}`;
export const requestCounterKey = (rateLimitId: string): string => `rl-requests:${rateLimitId}`;
export const tokenCounterKey = (rateLimitId: string): string => `rl-tokens:${rateLimitId}`;

const FIXED_UNITS_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const CALENDAR_UNITS: Record<string, CalendarUnit> = { d: 'day', w: 'week', M: 'month', Q: 'quarter', Y: 'year' };
/** Months and longer have no fixed length: without calendar alignment they run 30, 91 and 365 days. */
const LONG_UNITS_MS = { M: 30 * 86_400_000, Q: 91 * 86_400_000, Y: 365 * 86_400_000 } as const;

/**
 * A reset duration (`30s`, `1m`, `1h`, `1d`, `1w`, `1M`, `1Q`, `1Y`; the count a positive integer) as a parsed unit,
 * or undefined when it is not one. `m` is minutes, `M` months.
 */
export function parseResetDuration(value: string): { count: number; unit: string } | undefined {
  const match = /^([1-9]\d{0,5})(s|m|h|d|w|M|Q|Y)$/.exec(value);
  return match ? { count: Number(match[1]), unit: match[2]! } : undefined;
}

/** Milliseconds of a reset duration without calendar alignment (months 30 days, quarters 91, years 365). */
export function resetDurationMs(value: string): number | undefined {
  const parsed = parseResetDuration(value);
  if (!parsed) return undefined;
  const unitMs =
    FIXED_UNITS_MS[parsed.unit as keyof typeof FIXED_UNITS_MS] ??
    LONG_UNITS_MS[parsed.unit as keyof typeof LONG_UNITS_MS];
  return parsed.count * unitMs;
}

/**
 * The counter window of a reset duration: aligned to UTC calendar periods when `calendarAligned` and the duration is
 * exactly one day, week, month, quarter or year; else a window of the duration's length.
 */
export function counterWindowOf(
  resetDuration: string,
  calendarAligned: boolean,
  quarterStartMonth?: number,
): CounterWindow {
  const parsed = parseResetDuration(resetDuration);
  if (!parsed) throw new RangeError(`bad reset duration ${resetDuration}`);
  const unit = CALENDAR_UNITS[parsed.unit];
  if (calendarAligned && unit && parsed.count === 1) {
    return unit === 'quarter' && quarterStartMonth
      ? { kind: 'calendar', unit, quarterStartMonth }
      : { kind: 'calendar', unit };
  }
  return { kind: 'fixed', ms: resetDurationMs(resetDuration)! };
}
