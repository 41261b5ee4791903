import { randomUUID } from 'node:crypto';
import { Clock, SystemClock } from '../clock/clock.js';
import {
  assertActual,
  assertNamespace,
  assertRecordTtl,
  assertReserve,
  CounterStore,
  DEFAULT_COUNTER_NAMESPACE,
  fitsLimit,
  LATE_COMMIT_GRACE_MS,
  type CounterState,
  type ReserveItem,
  type ReserveResult,
  type ReservedState,
} from './counter.store.js';
import { assertAmount, assertWindow, newWindowEnd, type CounterWindow } from './counter-window.js';

interface Hold {
  amount: number;
  until: number;
}

interface FixedCounter {
  layout: 'fixed';
  value: number;
  /** End of the running window; 0 before the first hit. */
  end: number;
  held: Holds;
}

interface RollingCounter {
  layout: 'rolling';
  /** Running sum of the hits from `head` on. */
  value: number;
  hits: Array<{ at: number; amount: number }>;
  /** Index of the oldest hit still in the window (the array is compacted now and then). */
  head: number;
  /** The window of the last call, for the sweep. */
  ms: number;
  held: Holds;
}

type Counter = FixedCounter | RollingCounter;

/**
 * A counter's outstanding reservations, with their running sum and the earliest expiry: the sum is recomputed from the
 * holds only when one has expired (and starts again from an exact zero when none is left), so a check costs O(1)
 * however many requests are in flight.
 */
class Holds {
  private readonly byId = new Map<string, Hold>();
  private total = 0;
  private nextExpiry = Infinity;

  get size(): number {
    return this.byId.size;
  }

  add(id: string, hold: Hold): void {
    this.byId.set(id, hold);
    this.total += hold.amount;
    if (hold.until < this.nextExpiry) this.nextExpiry = hold.until;
  }

  delete(id: string): void {
    const hold = this.byId.get(id);
    if (!hold) return;
    this.byId.delete(id);
    if (this.byId.size === 0) {
      this.total = 0;
      this.nextExpiry = Infinity;
    } else {
      this.total -= hold.amount;
    }
  }

  /** Sum of the holds still running at `now`; expired ones are dropped first. */
  sum(now: number): number {
    if (this.nextExpiry > now) return this.total;
    let total = 0;
    let next = Infinity;
    for (const [id, hold] of this.byId) {
      if (hold.until <= now) this.byId.delete(id);
      else {
        total += hold.amount;
        if (hold.until < next) next = hold.until;
      }
    }
    this.total = total;
    this.nextExpiry = next;
    return total;
  }
}

interface Reservation {
  items: Array<{ key: string; window: CounterWindow; amount: number }>;
  keepUntil: number;
}

/** Expired counters and reservations are swept every this many operations. */
const SWEEP_EVERY = 1024;

/**
 * The embedded-mode counter store: the Redis store's semantics in this process's memory. Every operation runs
 * synchronously inside (JavaScript is single-threaded), so it is exact under concurrency like the Lua scripts.
 */
export class MemoryCounterStore extends CounterStore {
  readonly kind = 'memory' as const;
  /** By layout, so a lookup needs no composed key. */
  private readonly fixedCounters = new Map<string, FixedCounter>();
  private readonly rollingCounters = new Map<string, RollingCounter>();
  private readonly reservations = new Map<string, Reservation>();
  private readonly stored = new Map<string, { value: string; until: number }>();
  private operations = 0;

  constructor(
    private readonly clock: Clock = new SystemClock(),
    private readonly namespaces = new Map<string, MemoryCounterStore>(),
  ) {
    super();
    if (namespaces.size === 0) namespaces.set(DEFAULT_COUNTER_NAMESPACE, this);
  }

  scoped(namespace: string): CounterStore {
    assertNamespace(namespace);
    let store = this.namespaces.get(namespace);
    if (!store) {
      store = new MemoryCounterStore(this.clock, this.namespaces);
      this.namespaces.set(namespace, store);
    }
    return store;
  }

  async increment(key: string, amount: number, window: CounterWindow): Promise<CounterState> {
    assertWindow(window);
    assertAmount(amount);
    const now = this.tick();
    this.add(key, window, amount, now);
    return this.state(key, window, now);
  }

  async get(key: string, window: CounterWindow): Promise<CounterState> {
    assertWindow(window);
    return this.state(key, window, this.tick());
  }

  async reset(key: string): Promise<void> {
    this.fixedCounters.delete(key);
    this.rollingCounters.delete(key);
  }

  async reserve(items: ReserveItem[], ttlMs: number): Promise<ReserveResult> {
    return this.reserveLocally(items, ttlMs);
  }

  /** Every reservation is decided in this process. */
  override reserveLocally(items: ReserveItem[], ttlMs: number): ReserveResult {
    assertReserve(items, ttlMs);
    const now = this.tick();
    const states: ReservedState[] = [];
    for (const item of items) {
      const { value, reserved, resetAt } = this.state(item.key, item.window, now);
      if (!fitsLimit(value + reserved + item.amount, item.limit)) {
        const retryAfterMs = this.retryAfter(item.key, item.window, resetAt, now);
        return { ok: false, key: item.key, current: value, reserved, limit: item.limit, retryAfterMs };
      }
      states.push({ used: value + reserved + item.amount, resetAt });
    }
    const reservationId = randomUUID();
    for (const item of items) {
      this.counter(item.key, item.window, now).held.add(reservationId, { amount: item.amount, until: now + ttlMs });
    }
    this.reservations.set(reservationId, {
      items: items.map(({ key, window, amount }) => ({ key, window, amount })),
      keepUntil: now + ttlMs + LATE_COMMIT_GRACE_MS,
    });
    return { ok: true, reservationId, states };
  }

  async commit(reservationId: string, actual?: Record<string, number>): Promise<boolean> {
    assertActual(actual);
    return this.settle(reservationId, actual ?? {});
  }

  async release(reservationId: string): Promise<boolean> {
    return this.settle(reservationId, null);
  }

  /** Ends a reservation: its holds go; with `actual` (commit) its amounts become usage. */
  async putRecord(key: string, value: string, ttlMs: number): Promise<void> {
    assertRecordTtl(ttlMs);
    this.stored.set(key, { value, until: this.tick() + ttlMs });
  }

  async records(prefix: string): Promise<Map<string, string>> {
    const now = this.tick();
    const out = new Map<string, string>();
    for (const [key, record] of this.stored) {
      if (record.until <= now) this.stored.delete(key);
      else if (key.startsWith(prefix)) out.set(key, record.value);
    }
    return out;
  }

  async deleteRecords(keys: readonly string[]): Promise<number> {
    const now = this.tick();
    let existed = 0;
    for (const key of keys) {
      const record = this.stored.get(key);
      if (record && record.until > now) existed++;
      this.stored.delete(key);
    }
    return existed;
  }

  private settle(reservationId: string, actual: Record<string, number> | null): boolean {
    const now = this.tick();
    const reservation = this.reservations.get(reservationId);
    if (!reservation || reservation.keepUntil <= now) {
      this.reservations.delete(reservationId);
      return false;
    }
    for (const key of Object.keys(actual ?? {})) {
      if (!reservation.items.some((item) => item.key === key)) throw new RangeError(`${key} is not reserved`);
    }
    this.reservations.delete(reservationId);
    for (const { key, window, amount } of reservation.items) {
      this.existing(key, window)?.held.delete(reservationId);
      if (actual) this.add(key, window, actual[key] ?? amount, now);
    }
    return true;
  }

  private add(key: string, window: CounterWindow, amount: number, now: number): void {
    if (window.kind === 'rolling') {
      const counter = this.rolling(key, window.ms, now);
      if (amount === 0) return;
      counter.hits.push({ at: now, amount });
      counter.value += amount;
      return;
    }
    const counter = this.fixed(key);
    if (counter.end <= now) {
      counter.value = 0;
      counter.end = newWindowEnd(window, now);
    }
    counter.value += amount;
  }

  private state(key: string, window: CounterWindow, now: number): CounterState {
    const counter = this.existing(key, window);
    const reserved = counter ? counter.held.sum(now) : 0;
    if (window.kind === 'rolling') {
      if (counter?.layout !== 'rolling') return { value: 0, reserved, resetAt: now };
      this.pruneHits(counter, window.ms, now);
      const oldest = counter.hits[counter.head];
      return { value: counter.value, reserved, resetAt: oldest ? oldest.at + window.ms : now };
    }
    if (counter?.layout !== 'fixed' || counter.end <= now) {
      return { value: 0, reserved, resetAt: newWindowEnd(window, now) };
    }
    return { value: counter.value, reserved, resetAt: counter.end };
  }

  /** The earliest time usage can drop: the window's end, or when the oldest rolling hit leaves (a window, if none). */
  private retryAfter(key: string, window: CounterWindow, resetAt: number, now: number): number {
    if (window.kind !== 'rolling') return Math.max(0, resetAt - now);
    const counter = this.rollingCounters.get(key);
    const hasHits = counter?.layout === 'rolling' && counter.head < counter.hits.length;
    return hasHits ? Math.max(0, resetAt - now) : window.ms;
  }

  /** The counter a reservation holds on, created when absent. */
  private counter(key: string, window: CounterWindow, now: number): Counter {
    return window.kind === 'rolling' ? this.rolling(key, window.ms, now) : this.fixed(key);
  }

  private fixed(key: string): FixedCounter {
    const counter = this.fixedCounters.get(key);
    if (counter) return counter;
    const created: FixedCounter = { layout: 'fixed', value: 0, end: 0, held: new Holds() };
    this.fixedCounters.set(key, created);
    return created;
  }

  /** Pruned to the window of `ms` before `now`. */
  private rolling(key: string, ms: number, now: number): RollingCounter {
    const counter = this.rollingCounters.get(key);
    if (counter) {
      this.pruneHits(counter, ms, now);
      return counter;
    }
    const created: RollingCounter = { layout: 'rolling', value: 0, hits: [], head: 0, ms, held: new Holds() };
    this.rollingCounters.set(key, created);
    return created;
  }

  private existing(key: string, window: CounterWindow): Counter | undefined {
    return window.kind === 'rolling' ? this.rollingCounters.get(key) : this.fixedCounters.get(key);
  }

  private pruneHits(counter: RollingCounter, ms: number, now: number): void {
    counter.ms = ms;
    const cutoff = now - ms;
    for (let oldest = counter.hits[counter.head]; oldest && oldest.at <= cutoff; oldest = counter.hits[counter.head]) {
      counter.value -= oldest.amount;
      counter.head++;
    }
    if (counter.head === counter.hits.length) {
      // Empty: start again from an exact zero (no rounding left over from the running sum).
      counter.hits = [];
      counter.head = 0;
      counter.value = 0;
    } else if (counter.head > 1024 && counter.head * 2 > counter.hits.length) {
      counter.hits = counter.hits.slice(counter.head);
      counter.head = 0;
    }
  }

  /** The clock of one operation, and now and then a sweep of what has expired. */
  private tick(): number {
    const now = this.clock.now();
    if (++this.operations % SWEEP_EVERY === 0) this.sweep(now);
    return now;
  }

  private sweep(now: number): void {
    for (const [id, reservation] of this.reservations) if (reservation.keepUntil <= now) this.reservations.delete(id);
    for (const [key, record] of this.stored) if (record.until <= now) this.stored.delete(key);
    for (const counters of [this.fixedCounters, this.rollingCounters] as Array<Map<string, Counter>>) {
      for (const [id, counter] of counters) {
        counter.held.sum(now);
        if (counter.held.size > 0) continue;
        if (counter.layout === 'rolling') this.pruneHits(counter, counter.ms, now);
        const live = counter.layout === 'fixed' ? counter.end > now : counter.hits.length > 0;
        if (!live) counters.delete(id);
      }
    }
  }
}
