import { randomUUID } from 'node:crypto';
import { Clock, SystemClock } from '../clock/clock.js';
import {
  assertActual,
  assertNamespace,
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
import { assertAmount, assertWindow, newWindowEnd, windowLayout, type CounterWindow } from './counter-window.js';

interface Hold {
  amount: number;
  until: number;
}

interface FixedCounter {
  layout: 'fixed';
  value: number;
  /** End of the running window; 0 before the first hit. */
  end: number;
  held: Map<string, Hold>;
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
  held: Map<string, Hold>;
}

type Counter = FixedCounter | RollingCounter;

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
  private readonly counters = new Map<string, Counter>();
  private readonly reservations = new Map<string, Reservation>();
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
    this.counters.delete(`fixed:${key}`);
    this.counters.delete(`rolling:${key}`);
  }

  async reserve(items: ReserveItem[], ttlMs: number): Promise<ReserveResult> {
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
      this.counter(item.key, item.window, now).held.set(reservationId, { amount: item.amount, until: now + ttlMs });
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
      this.counters.get(`${windowLayout(window)}:${key}`)?.held.delete(reservationId);
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
    const counter = this.counters.get(`${windowLayout(window)}:${key}`);
    const reserved = counter ? this.heldSum(counter, now) : 0;
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
    const counter = this.counters.get(`rolling:${key}`);
    const hasHits = counter?.layout === 'rolling' && counter.head < counter.hits.length;
    return hasHits ? Math.max(0, resetAt - now) : window.ms;
  }

  /** The counter a reservation holds on, created when absent. */
  private counter(key: string, window: CounterWindow, now: number): Counter {
    return window.kind === 'rolling' ? this.rolling(key, window.ms, now) : this.fixed(key);
  }

  private fixed(key: string): FixedCounter {
    const counter = this.counters.get(`fixed:${key}`);
    if (counter?.layout === 'fixed') return counter;
    const created: FixedCounter = { layout: 'fixed', value: 0, end: 0, held: new Map() };
    this.counters.set(`fixed:${key}`, created);
    return created;
  }

  /** Pruned to the window of `ms` before `now`. */
  private rolling(key: string, ms: number, now: number): RollingCounter {
    const counter = this.counters.get(`rolling:${key}`);
    if (counter?.layout === 'rolling') {
      this.pruneHits(counter, ms, now);
      return counter;
    }
    const created: RollingCounter = { layout: 'rolling', value: 0, hits: [], head: 0, ms, held: new Map() };
    this.counters.set(`rolling:${key}`, created);
    return created;
  }

  /** Summed on every call (a counter has as many holds as requests in flight): no running sum to drift. */
  private heldSum(counter: Counter, now: number): number {
    let sum = 0;
    for (const [id, hold] of counter.held) {
      if (hold.until <= now) counter.held.delete(id);
      else sum += hold.amount;
    }
    return sum;
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
    for (const [id, counter] of this.counters) {
      this.heldSum(counter, now);
      if (counter.held.size > 0) continue;
      if (counter.layout === 'rolling') this.pruneHits(counter, counter.ms, now);
      const live = counter.layout === 'fixed' ? counter.end > now : counter.hits.length > 0;
      if (!live) this.counters.delete(id);
    }
  }
}
