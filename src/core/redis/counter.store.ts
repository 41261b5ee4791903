import { createHash } from 'node:crypto';
import { assertAmount, assertWindow, type CounterWindow } from './counter-window.js';

export type { CalendarUnit, CounterWindow } from './counter-window.js';

export interface CounterState {
  /** Usage in the current window (outstanding reservations not included). */
  value: number;
  /** Sum of this counter's outstanding reservations. */
  reserved: number;
  /**
   * Epoch ms when the value next drops: the end of the fixed or calendar window (of the one a hit now would start,
   * when none is running); for a rolling window, when its oldest hit leaves it (now, when it has none).
   */
  resetAt: number;
}

export interface ReserveItem {
  key: string;
  amount: number;
  limit: number;
  window: CounterWindow;
}

/** An item's counter as the reservation left it. */
export interface ReservedState {
  /** Usage plus outstanding reservations, this one included. */
  used: number;
  /** As CounterState.resetAt. */
  resetAt: number;
}

export type ReserveResult =
  | {
      ok: true;
      reservationId: string;
      /** Per item, in the order given (what `x-ratelimit-remaining-*` headers are computed from, without a read). */
      states: ReservedState[];
    }
  | {
      ok: false;
      /** The first item (in the order given) that did not fit. */
      key: string;
      /** Its usage and outstanding reservations; `current + reserved + amount` exceeded `limit`. */
      current: number;
      reserved: number;
      limit: number;
      /** The earliest time the usage can drop (0 or more): window end, or the oldest rolling hit's exit. */
      retryAfterMs: number;
    };

/**
 * Shared counters for budgets, rate limits, circuit breakers and throttles: in Redis when `redis_url` is set (atomic Lua
 * script runs, so every replica sharing `redis_prefix` sees one exact count), else in this process's memory with
 * the same semantics. Inject it by this class.
 *
 * Amounts are finite numbers >= 0 and may be fractional (USD): stored as IEEE doubles, so integers are exact up to
 * 2^53 and sums of fractions carry about 15 significant digits. A limit is met while `usage <= limit` within a relative
 * tolerance of 1e-9, so 0.1 + 0.2 fits a limit of 0.3.
 *
 * Errors of the backing store (Redis unreachable) are thrown to the caller, which decides; see docs/decisions.md.
 */
export abstract class CounterStore {
  abstract readonly kind: 'redis' | 'memory';

  /** Adds `amount` (0 or more) unconditionally and returns the new state. */
  abstract increment(key: string, amount: number, window: CounterWindow): Promise<CounterState>;

  /** Reads without starting a window. */
  abstract get(key: string, window: CounterWindow): Promise<CounterState>;

  /** Forgets the counter's usage and outstanding reservations, in every window layout. */
  abstract reset(key: string): Promise<void>;

  /**
   * Atomically across all items (distinct keys): when every item's usage + outstanding reservations + amount fits its
   * limit, reserves every amount; else reserves nothing. A reservation neither committed nor released stops counting
   * after `ttlMs`.
   */
  abstract reserve(items: ReserveItem[], ttlMs: number): Promise<ReserveResult>;

  /**
   * The same reservation decided without I/O when this store can (in-process counters; leases held by this process),
   * else undefined and nothing reserved: the caller then awaits `reserve`. Spares the request path a promise and a
   * timeout where no backend is asked.
   */
  reserveLocally(_items: ReserveItem[], _ttlMs: number): ReserveResult | undefined {
    return undefined;
  }

  /**
   * Turns a reservation into usage, per key with `actual[key]` instead of the reserved amount when given (the real
   * cost). Accepted until `LATE_COMMIT_GRACE_MS` after the reservation expired (a slow request is still charged).
   * False when the reservation is unknown, already committed or released.
   */
  abstract commit(reservationId: string, actual?: Record<string, number>): Promise<boolean>;

  /** Drops a reservation without usage. False when it is unknown, committed or released already. */
  abstract release(reservationId: string): Promise<boolean>;

  /**
   * Short-lived shared records (circuit state): `value` under `key` for `ttlMs`, replacing any record of the key. A
   * record is a plain value with an expiry, not a counter; the namespace is shared with the counters of this store.
   */
  abstract putRecord(key: string, value: string, ttlMs: number): Promise<void>;

  /** Every live record whose key starts with `prefix`, by key. */
  abstract records(prefix: string): Promise<Map<string, string>>;

  /** Deletes the records of these keys; resolves to how many existed. */
  abstract deleteRecords(keys: readonly string[]): Promise<number>;

  /**
   * The same store under another key namespace (`<redis_prefix>:<namespace>:` instead of `<redis_prefix>:counters:`),
   * for counters with a documented home of their own (login failures).
   */
  abstract scoped(namespace: string): CounterStore;
}

export const DEFAULT_COUNTER_NAMESPACE = 'counters';

/** How long after its expiry a reservation can still be committed (charged, no longer held). */
export const LATE_COMMIT_GRACE_MS = 10 * 60_000;

/** Relative tolerance of limit checks, so accumulated rounding of fractional amounts does not refuse an exact fit. */
const LIMIT_TOLERANCE = 1e-9;

export function fitsLimit(total: number, limit: number): boolean {
  return total - limit <= LIMIT_TOLERANCE * Math.max(1, Math.abs(limit));
}
/** The same tolerance, for the Lua scripts. */
export const LIMIT_TOLERANCE_LUA = String(LIMIT_TOLERANCE);

/** Readable names stay as they are; anything else (or anything long) becomes `#<sha256>` ('#' is never readable). */
export function storedCounterName(key: string): string {
  return /^[\w.:@/-]{1,200}$/.test(key) ? key : `#${createHash('sha256').update(key).digest('hex')}`;
}

export function assertRecordTtl(ttlMs: number): void {
  if (!Number.isInteger(ttlMs) || ttlMs <= 0) throw new RangeError('record ttlMs must be a positive integer');
}

export function assertNamespace(namespace: string): void {
  if (!/^[a-z][a-z0-9-]{0,62}$/.test(namespace)) throw new RangeError(`bad counter namespace ${namespace}`);
}

export function assertReserve(items: ReserveItem[], ttlMs: number): void {
  if (items.length === 0) throw new RangeError('reserve needs at least one item');
  if (!Number.isInteger(ttlMs) || ttlMs <= 0) throw new RangeError('reservation ttlMs must be a positive integer');
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    // Reservations list a few counters: comparing pairs costs less than building a set.
    for (let j = 0; j < i; j++) {
      if (items[j]!.key === item.key) throw new RangeError(`reserve lists ${item.key} twice`);
    }
    assertWindow(item.window);
    assertAmount(item.amount);
    if (!Number.isFinite(item.limit)) throw new RangeError('limit must be finite');
  }
}

export function assertActual(actual: Record<string, number> | undefined): void {
  for (const [key, amount] of Object.entries(actual ?? {})) assertAmount(amount, `actual amount of ${key}`);
}
