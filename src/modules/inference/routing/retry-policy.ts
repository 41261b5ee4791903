import type { NetworkSettings } from '../catalog/provider-snapshot.js';

/** What the router does after a failed attempt. */
export type RetryAction =
  /** Try again on the same key after a backoff (5xx, connection failure, timeout). */
  | 'retry-same-key'
  /** Try again on another key when one is left, after a backoff (429). */
  | 'rotate-key'
  /** The key is dead for this request; try the next key at once (401, 402, 403). */
  | 'drop-key'
  /** Give up on this model; fallbacks may still run (the caller's request was fine). */
  | 'give-up'
  /** Give up on the whole request: the caller's request itself was refused (400, 404, 422, ...). */
  | 'fail';

/** The retry decision for an upstream status (0 = no HTTP answer: connection failure or timeout). */
export function retryActionFor(status: number): RetryAction {
  if (status === 0 || status === 408 || status >= 500) return 'retry-same-key';
  if (status === 429) return 'rotate-key';
  if (status === 401 || status === 402 || status === 403) return 'drop-key';
  return 'fail';
}

/** Whether a model's final failure lets the next fallback run (429, 5xx, timeouts, connection, exhausted keys). */
export function allowsFallback(status: number, exhausted: boolean): boolean {
  return exhausted || status === 0 || status === 408 || status === 429 || status >= 500;
}

/**
 * Exponential backoff with jitter: min(initial · 2^retry, max) · U(0.8, 1.2), `retry` counting from 0 for the first
 * retry.
 */
export function backoffMs(network: NetworkSettings, retry: number, random: () => number = Math.random): number {
  const base = Math.min(network.backoffInitialMs * 2 ** retry, network.backoffMaxMs);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * How long to wait before the next attempt: the provider's hint when it fits within `backoffMaxMs` (the provider
 * knows best), `undefined` when the hint is longer (stop retrying this model and let fallbacks run), else the backoff.
 */
export function waitBeforeRetry(
  network: NetworkSettings,
  retry: number,
  hintMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (hintMs !== undefined) return hintMs <= network.backoffMaxMs ? hintMs : undefined;
  return backoffMs(network, retry, random);
}
