import type { Schema } from '../../api/schemas';
import { formatCost, formatNumber } from '../../shared/format/format';
import { emptyBudget, type BudgetValues, type RateLimitValues } from '../virtual-keys/virtual-key-values';

export type Team = Schema<'Team'>;
export type Customer = Schema<'Customer'>;
type Budget = Schema<'Budget'>;
type RateLimit = Schema<'RateLimit'>;
type RateLimitInput = Schema<'RateLimitInput'>;

/** The two kinds of owner the screen lists; each is one tab. */
export type OwnerKind = 'team' | 'customer';
export type Owner = Team | Customer;

/** What a bar shows: how full (0–100, over the limit shows full), its colour, and the exact figures as text. */
export interface Bar {
  percent: number;
  color: 'green' | 'yellow' | 'red';
  /** `$0.000012 of $0.00001` or `3 of 5 requests`: what a person reads. */
  label: string;
  full: boolean;
}

/** How full a limit is and the colour a person reads it by: green, yellow from 75 %, red from 90 %. */
export function barOf(
  used: number | null | undefined,
  limit: number | null | undefined,
  unit: 'usd' | 'requests' | 'tokens',
  locale?: string,
): Bar {
  const spent = used ?? 0;
  const percent = !limit ? (spent > 0 ? 100 : 0) : Math.min(100, Math.max(0, (spent / limit) * 100));
  const color = percent >= 90 ? 'red' : percent >= 75 ? 'yellow' : 'green';
  const label =
    unit === 'usd'
      ? `${formatCost(spent, { locale })} of ${formatCost(limit, { locale })}`
      : `${formatNumber(spent, { locale })} of ${formatNumber(limit, { locale })} ${unit}`;
  return { percent, color, label, full: limit !== null && limit !== undefined && spent >= limit };
}

/** A budget's bar: its usage against its limit with an active override included (what enforcement compares). */
export function budgetBar(budget: Pick<Budget, 'current_usage' | 'effective_max_limit'>, locale?: string): Bar {
  return barOf(budget.current_usage, budget.effective_max_limit, 'usd', locale);
}

const MINUTE = 60_000;
const DAY = 86_400_000;
const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: MINUTE,
  h: 60 * MINUTE,
  d: DAY,
  w: 7 * DAY,
  // Without calendar alignment months, quarters and years run 30, 91 and 365 days (the gateway's windows).
  M: 30 * DAY,
  Q: 91 * DAY,
  Y: 365 * DAY,
};

/** `1M` as a count and a unit (`m` minutes, `M` months), or undefined when it is not a reset duration. */
export function parseDuration(value: string): { count: number; unit: string } | undefined {
  const match = /^([1-9]\d{0,5})(s|m|h|d|w|M|Q|Y)$/.exec(value);
  return match ? { count: Number(match[1]), unit: match[2]! } : undefined;
}

/** The UTC calendar period (day, Monday-based week, month, quarter, year) holding `at`: its end. */
function calendarEnd(unit: string, at: number): number | undefined {
  const date = new Date(at);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  switch (unit) {
    case 'd':
      return Date.UTC(year, month, date.getUTCDate()) + DAY;
    case 'w':
      return Date.UTC(year, month, date.getUTCDate()) - ((date.getUTCDay() + 6) % 7) * DAY + 7 * DAY;
    case 'M':
      return Date.UTC(year, month + 1, 1);
    case 'Q':
      return Date.UTC(year, month - (month % 3) + 3, 1);
    case 'Y':
      return Date.UTC(year + 1, 0, 1);
    default:
      return undefined;
  }
}

/**
 * When a budget's usage next drops to zero, as the gateway counts it: a calendar-aligned budget (one day, week,
 * month, quarter or year) at the end of the UTC period holding its window's start; any other budget one window after
 * its first charge, so while nothing is charged there is no reset to wait for (undefined).
 */
export function budgetResetAt(
  budget: Pick<Budget, 'reset_duration' | 'calendar_aligned' | 'current_usage' | 'last_reset'>,
): Date | undefined {
  const parsed = parseDuration(budget.reset_duration);
  const start = Date.parse(budget.last_reset);
  if (!parsed || Number.isNaN(start)) return undefined;
  if (budget.calendar_aligned && parsed.count === 1) {
    const end = calendarEnd(parsed.unit, start);
    if (end !== undefined) return new Date(end);
  }
  if (budget.current_usage <= 0) return undefined;
  return new Date(start + parsed.count * UNIT_MS[parsed.unit]!);
}

/** The line under a bar: `Every 1d · resets` (the time follows), or why there is no reset time to show. */
export function resetLine(window: string | null | undefined, resetAt: Date | undefined): string {
  const every = `Every ${window ?? '—'}`;
  return resetAt ? `${every} · resets` : `${every} · the window starts with the next charge`;
}

/** The rate limit's bars that exist (a request or a token limit may be left out). */
export function rateLimitBars(
  rl: RateLimit | null,
  locale?: string,
): Array<{ what: 'requests' | 'tokens'; window: string | null; bar: Bar }> {
  if (!rl) return [];
  const out: Array<{ what: 'requests' | 'tokens'; window: string | null; bar: Bar }> = [];
  if (rl.request_max_limit !== null)
    out.push({
      what: 'requests',
      window: rl.request_reset_duration,
      bar: barOf(rl.request_current_usage, rl.request_max_limit, 'requests', locale),
    });
  if (rl.token_max_limit !== null)
    out.push({
      what: 'tokens',
      window: rl.token_reset_duration,
      bar: barOf(rl.token_current_usage, rl.token_max_limit, 'tokens', locale),
    });
  return out;
}

/** Owners whose name holds the search (case-insensitive), in name order: the API lists them all at once. */
export function filterOwners<T extends { name: string }>(owners: readonly T[], search: string | undefined): T[] {
  const needle = (search ?? '').trim().toLowerCase();
  return owners
    .filter((o) => !needle || o.name.toLowerCase().includes(needle))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The owner form's values, named as the API's fields (a refusal's `error.param` lands on its input). */
export interface OwnerValues extends Record<string, unknown> {
  name: string;
  budgets: BudgetValues[];
  rate_limit: RateLimitValues;
  reset_usage: boolean;
}

const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

export function ownerValues(owner?: Owner): OwnerValues {
  return { name: owner?.name ?? '', ...limitValues(owner), reset_usage: false };
}

/** Stored budgets and rate limit (a team's, a model config's, a provider's) as the form holds them. */
export function limitValues(owner?: { budgets: Budget[]; rate_limit: RateLimit | null }): {
  budgets: BudgetValues[];
  rate_limit: RateLimitValues;
} {
  const rl = owner?.rate_limit;
  return {
    budgets: (owner?.budgets ?? []).map((b) => ({
      max_limit: String(b.max_limit),
      reset_duration: b.reset_duration,
      calendar_aligned: b.calendar_aligned,
    })),
    rate_limit: {
      request_max_limit: text(rl?.request_max_limit),
      request_reset_duration: rl?.request_reset_duration ?? '',
      token_max_limit: text(rl?.token_max_limit),
      token_reset_duration: rl?.token_reset_duration ?? '',
    },
  };
}

export { emptyBudget };

/** A typed number, or the text as typed when it is not one (the constraints then name the field). */
const numberOf = (value: string): number | string => {
  const trimmed = value.trim();
  const n = Number(trimmed);
  return trimmed !== '' && Number.isFinite(n) ? n : trimmed;
};

/** The budgets as the API takes them (a number typed badly stays text, so the constraints name its field). */
export function budgetInputs(budgets: readonly BudgetValues[]) {
  return budgets.map((b) => ({
    max_limit: numberOf(b.max_limit) as number,
    reset_duration: b.reset_duration.trim(),
    calendar_aligned: b.calendar_aligned,
  }));
}

/** The rate limit, or null when every field is blank (no limit). */
export function rateLimitOf(values: RateLimitValues): RateLimitInput | null {
  const fields = [
    values.request_max_limit,
    values.request_reset_duration,
    values.token_max_limit,
    values.token_reset_duration,
  ];
  if (fields.every((v) => v.trim() === '')) return null;
  const limit = (v: string) => (v.trim() === '' ? null : (numberOf(v) as number));
  const window = (v: string) => v.trim() || null;
  return {
    request_max_limit: limit(values.request_max_limit),
    request_reset_duration: window(values.request_reset_duration),
    token_max_limit: limit(values.token_max_limit),
    token_reset_duration: window(values.token_reset_duration),
  };
}

/**
 * The create or update body: the name, the budgets (a list replaces the stored ones; a budget keeping its window
 * keeps its usage), the rate limit (blank: none, so an update sends null), and on an update `reset_usage` when ticked.
 */
export function ownerRequest(values: OwnerValues, editing: boolean) {
  const rateLimit = rateLimitOf(values.rate_limit);
  const body = { name: values.name.trim(), budgets: budgetInputs(values.budgets) };
  if (!editing) return rateLimit ? { ...body, rate_limit: rateLimit } : body;
  return { ...body, rate_limit: rateLimit, ...(values.reset_usage ? { reset_usage: true } : {}) };
}

/** What the constraints cannot say: a limit needs its window and a window its limit; windows unique per owner. */
export function ownerProblems(values: Pick<OwnerValues, 'budgets' | 'rate_limit'>): Record<string, string> {
  const problems: Record<string, string> = {};
  const rl = values.rate_limit;
  for (const what of ['request', 'token'] as const) {
    const limit = rl[`${what}_max_limit`].trim();
    const window = rl[`${what}_reset_duration`].trim();
    if (limit && !window) problems[`rate_limit.${what}_reset_duration`] = 'A limit needs its window';
    if (window && !limit) problems[`rate_limit.${what}_max_limit`] = 'A window needs its limit';
  }
  const seen = new Set<string>();
  values.budgets.forEach((b, i) => {
    const window = b.reset_duration.trim();
    if (window && seen.has(window)) problems[`budgets.${i}.reset_duration`] = 'Another budget has this window';
    seen.add(window);
  });
  return problems;
}

/** The label a person reads for one owner: `Team research`, `Customer acme`. */
export function ownerLabel(kind: OwnerKind, name: string): string {
  return `${kind === 'team' ? 'Team' : 'Customer'} ${name}`;
}
