import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { LEVEL_NAMES, type GovernedLevel } from './governed-levels.js';

/** One counter a request is checked against: a budget, or the request or token window of a rate limit. */
export interface LimitCheck {
  level: GovernedLevel;
  kind: 'budget' | 'requests' | 'tokens';
  /** The budget's or rate limit's id. */
  ruleId: string;
  limit: number;
  resetDuration: string;
}

/** A duration as OpenAI writes its `x-ratelimit-reset-*` headers: `850ms`, `12s`, `6m0s`, `1h2m3s`. */
export function resetText(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.ceil(ms))}ms`;
  let seconds = Math.ceil(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}

/** USD for messages: plain decimals, at most 9 places, trailing zeros dropped. */
function usd(amount: number): string {
  return amount.toFixed(9).replace(/\.?0+$/, '') || '0';
}

function count(amount: number): string {
  return Number.isInteger(amount) ? String(amount) : amount.toFixed(2);
}

function levelLabel(level: GovernedLevel): string {
  const name = LEVEL_NAMES[level.kind];
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} '${level.name}'`;
}

/**
 * The refusal of a check that did not fit: 402 `budget_exceeded` or 429 `request_limited` / `token_limited`, the
 * message naming the level and the figures, `Retry-After` and the refused window's `x-ratelimit-*` headers on 429.
 */
export function limitRefusal(
  check: LimitCheck,
  figures: { current: number; reserved: number; amount: number; retryAfterMs: number },
): GatewayException {
  const { level } = check;
  const used = figures.current + figures.reserved;
  const extraFields = {
    governance: {
      level: level.kind,
      level_id: level.id,
      level_name: level.name,
      limit_id: check.ruleId,
      limit_kind: check.kind,
      limit: check.limit,
      used,
      requested: figures.amount,
      reset_duration: check.resetDuration,
    },
  };
  if (check.kind === 'budget') {
    return new GatewayException(
      402,
      'budget_exceeded',
      `${levelLabel(level)} budget exceeded: ${usd(used)} of ${usd(check.limit)} dollars used, ` +
        `this request may cost up to ${usd(figures.amount)} (resets every ${check.resetDuration})`,
      { reason: 'policy_budget_exceeded', extraFields },
    );
  }
  const retryAfter = Math.max(1, Math.ceil(figures.retryAfterMs / 1000));
  const unit = check.kind === 'requests' ? 'requests' : 'tokens';
  const headers = {
    'retry-after': String(retryAfter),
    [`x-ratelimit-limit-${unit}`]: count(check.limit),
    [`x-ratelimit-remaining-${unit}`]: count(Math.max(0, Math.floor(check.limit - used))),
    [`x-ratelimit-reset-${unit}`]: resetText(figures.retryAfterMs),
  };
  const message =
    check.kind === 'requests'
      ? `${levelLabel(level)} request limit exceeded (${count(used)}/${count(check.limit)}, resets every ${check.resetDuration})`
      : `${levelLabel(level)} token limit exceeded (${count(used)}/${count(check.limit)} used, this request may use up to ` +
        `${count(figures.amount)}, resets every ${check.resetDuration})`;
  return new GatewayException(429, check.kind === 'requests' ? 'request_limited' : 'token_limited', message, {
    reason: 'policy_rate_limited',
    extraFields,
    headers,
  });
}

/** The counters could not be reached in time and the failure mode is `closed`. */
export function limitsUnavailable(cause: unknown): GatewayException {
  return new GatewayException(
    503,
    'gateway_limits_unavailable',
    'Budgets and rate limits cannot be checked right now (the shared counters do not answer); try again shortly',
    { reason: 'gateway_internal', headers: { 'retry-after': '1' }, cause },
  );
}
