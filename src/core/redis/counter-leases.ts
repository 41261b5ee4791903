import { randomUUID } from 'node:crypto';
import type { BeforeApplicationShutdown } from '@nestjs/common';
import type { Clock } from '../clock/clock.js';
import { withTimeout } from '../clock/with-timeout.js';
import {
  assertActual,
  assertReserve,
  CounterStore,
  fitsLimit,
  LATE_COMMIT_GRACE_MS,
  type CounterState,
  type ReserveItem,
  type ReserveResult,
  type ReservedState,
} from './counter.store.js';
import { windowLayout, type CounterWindow } from './counter-window.js';

/**
 * A lease holds between these many times the amount of the request that asked for it: a counter starts at the least,
 * and its next lease doubles while one lasts less than half its lifetime (each ask is a script run, about 0.3 ms of
 * CPU here) and halves when one ends mostly unused or Redis refuses it.
 */
export const MIN_LEASE_UNITS = 32;
export const MAX_LEASE_UNITS = 2048;
/**
 * A lease is granted only while the counter keeps this many more leases of headroom beyond it, so a counter near its
 * limit is never leased: there every reservation goes to Redis and is exact across replicas.
 */
export const LEASE_MARGIN = 2;
/** New reservations stop taking from a lease this long after it was granted (or at its fixed window's end). */
export const LEASE_LIFETIME_MS = 1_000;
/** After Redis refused a lease (too near the limit) or failed, the counter is not leased again for this long. */
const LEASE_RETRY_MS = 1_000;
/** The next lease is asked for once this share of the current one is taken, so requests rarely wait for Redis. */
const RENEW_AT = 0.5;
/** The next lease is also asked for this long before the current one's time is up, so none ends without a successor. */
const RENEW_BEFORE_END_MS = 250;
/** An ended lease whose reservations are still open this long is carried (`carry`): its usage is charged. */
const CARRY_AFTER_MS = 1_000;
/** How often leases past their lifetime are ended while no request touches them. */
const SWEEP_MS = 250;
/** Local reservations kept at most (beyond it the oldest are dropped, as an expired reservation is). */
const MAX_LOCAL_HOLDS = 100_000;
/** Local reservations made between two looks for expired ones. */
const PRUNE_EVERY = 1024;
/** The limit of a carry: the reservations it carries are admitted already, so it is never refused. */
const NO_LIMIT = 1e300;
/** How long shutdown waits for the last leases to be charged. */
const SHUTDOWN_FLUSH_MS = 2_000;

/**
 * Part of a counter reserved in Redis by this process and handed out locally: a request whose every counter is leased
 * reserves with no round trip. What the local reservations used is charged in one commit when the lease ends.
 */
class Lease {
  /** Local reservations not settled yet, and the amounts they hold. */
  open = 0;
  held = 0;
  /** What settled local reservations used: charged when the lease ends. */
  used = 0;
  closed = false;
  endedAt = 0;
  carried = false;
  readonly key: string;
  readonly window: CounterWindow;
  readonly limit: number;
  /** The Redis reservation behind it; a promise while a carry is being reserved (undefined: it failed). */
  remote: string | Promise<string | undefined>;
  /** What the Redis reservation holds. */
  amount: number;
  readonly ttlMs: number;
  readonly grantedAt: number;
  readonly closesAt: number;
  /** The counter's leases in this process. */
  readonly slot: LeaseSlot;
  /** The lease's size in request amounts. */
  readonly units: number;

  constructor(grant: Omit<Lease, 'open' | 'held' | 'used' | 'closed' | 'endedAt' | 'carried' | 'taken'>) {
    this.key = grant.key;
    this.window = grant.window;
    this.limit = grant.limit;
    this.remote = grant.remote;
    this.amount = grant.amount;
    this.ttlMs = grant.ttlMs;
    this.grantedAt = grant.grantedAt;
    this.closesAt = grant.closesAt;
    this.slot = grant.slot;
    this.units = grant.units;
  }

  get taken(): number {
    return this.used + this.held;
  }
}

/** A counter's leases in this process. */
interface LeaseSlot {
  current?: Lease;
  /** Granted while `current` still had room; takes over when `current` ends. */
  next?: Lease;
  /** Every lease of the counter not yet charged (current, next and ended ones whose reservations are still open). */
  unsettled: Set<Lease>;
  asking: boolean;
  /** The size of the next lease, in request amounts. */
  units: number;
  /** No lease is asked for before this time (the last ask was refused or failed). */
  retryAt: number;
  /**
   * What a local reservation reports as the counter's `used` is `base + taken`: `base` is everyone else's usage and
   * reservations at the last grant plus what this process's ended leases charged, `taken` what its unsettled leases
   * hold and used. `resetAt` is as of the last grant.
   */
  base: number;
  taken: number;
  resetAt: number;
}

/** A reservation made here: the caller's items (kept, not copied) and the lease each was taken from. */
interface LocalHold {
  items: readonly ReserveItem[];
  /** Per item; undefined for an item reserved in Redis. */
  leases: ReadonlyArray<Lease | undefined>;
  /** The Redis reservation of the request's counters that were not leased. */
  remoteId?: string;
  until: number;
}

/**
 * Redis counters with per-process leases, for a request path that mostly needs no round trip: far from a counter's
 * limit, this process reserves a share of it in Redis (`MIN_LEASE_UNITS` to `MAX_LEASE_UNITS` times a request's amount,
 * while `LEASE_MARGIN` more such shares stay free) and reserves from that share locally. Near the limit, or for a
 * counter without a lease, the reservation goes to Redis as before. Nothing is ever counted twice or not at all: the
 * share is held in Redis like any reservation, and ending a lease commits what its requests used (their actual
 * amounts), so the sum across replicas never passes a limit. What leasing trades, for about a second: a replica can be
 * refused while another still holds an unused share (only within `LEASE_MARGIN + 1` shares of the limit), and what
 * another replica's open lease used is seen in Redis only when it ends. See docs/governance.md, "Counter leases".
 */
export class LeasedCounterStore extends CounterStore implements BeforeApplicationShutdown {
  readonly kind = 'redis' as const;
  private readonly slots = new Map<string, LeaseSlot>();
  private readonly holds = new Map<string, LocalHold>();
  /** Local reservation ids: a random prefix (unlike any Redis reservation id) and a sequence. */
  private readonly idPrefix = `lease-${randomUUID()}-`;
  private lastId = 0;
  private readonly sweeper: NodeJS.Timeout;
  /** Charges and releases of ending leases still on their way, so shutdown can wait for them. */
  private readonly ending = new Set<Promise<unknown>>();

  constructor(
    private readonly inner: CounterStore,
    private readonly clock: Clock,
    /** Background counter calls (asking for, charging a lease) that failed: the caller decides how to report. */
    private readonly onError: (err: unknown, what: string) => void,
  ) {
    super();
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  increment(key: string, amount: number, window: CounterWindow): Promise<CounterState> {
    return this.inner.increment(key, amount, window);
  }

  /** Redis's figures with this process's leases replaced by what their requests hold and used. */
  async get(key: string, window: CounterWindow): Promise<CounterState> {
    const share = this.ownShare(key);
    const state = await this.inner.get(key, window);
    if (!share) return state;
    const reserved = Math.max(0, state.reserved + share.held - share.amount);
    return { value: state.value + share.used, reserved, resetAt: state.resetAt };
  }

  /** Usage this process's leases hold for the counter is forgotten with it; their open reservations still count. */
  async reset(key: string): Promise<void> {
    const slot = this.slots.get(key);
    if (slot) {
      for (const lease of slot.unsettled) {
        slot.taken -= lease.used;
        lease.used = 0;
      }
      this.endLeases(slot);
    }
    await this.inner.reset(key);
  }

  /** Decided here when every item has a lease with room for it; otherwise nothing is taken. */
  override reserveLocally(items: ReserveItem[], ttlMs: number): ReserveResult | undefined {
    assertReserve(items, ttlMs);
    const now = this.clock.now();
    const leases: Lease[] = [];
    for (const item of items) {
      const lease = this.leaseFor(item, ttlMs, now);
      if (!lease) return undefined;
      leases.push(lease);
    }
    const states: ReservedState[] = [];
    for (let i = 0; i < items.length; i++) {
      states.push(this.take(leases[i]!, items[i]!.amount));
    }
    return { ok: true, reservationId: this.keep({ items, leases, until: now + ttlMs + LATE_COMMIT_GRACE_MS }), states };
  }

  /** Leased items are taken here, the others reserved in Redis; a refusal there gives the taken ones back. */
  async reserve(items: ReserveItem[], ttlMs: number): Promise<ReserveResult> {
    const local = this.reserveLocally(items, ttlMs);
    if (local) return local;
    const now = this.clock.now();
    const leases: Array<Lease | undefined> = [];
    const states: ReservedState[] = new Array<ReservedState>(items.length);
    const remote: ReserveItem[] = [];
    const remoteIndexes: number[] = [];
    items.forEach((item, i) => {
      const lease = this.leaseFor(item, ttlMs, now);
      leases.push(lease);
      if (!lease) {
        remote.push(item);
        remoteIndexes.push(i);
        return;
      }
      states[i] = this.take(lease, item.amount);
    });
    const hold: LocalHold = { items, leases, until: now + ttlMs + LATE_COMMIT_GRACE_MS };
    // Read as the call is queued: Redis answers it as of the calls queued before it (lease asks go a microtask later).
    const own = remote.map((item) => this.ownShare(item.key));
    let result: ReserveResult;
    try {
      result = await this.inner.reserve(remote, ttlMs);
    } catch (err) {
      this.settleHold(hold, undefined);
      throw err;
    }
    if (!result.ok) {
      this.settleHold(hold, undefined);
      const share = own[remote.findIndex((item) => item.key === result.key)];
      if (!share) return result;
      // As this process sees it: its leases' usage and open reservations instead of the shares they hold.
      const current = result.current + share.used;
      return { ...result, current, reserved: Math.max(0, result.reserved + share.held - share.amount) };
    }
    result.states.forEach((state, j) => {
      const share = own[j];
      states[remoteIndexes[j]!] = share
        ? { ...state, used: state.used + share.used + share.held - share.amount }
        : state;
    });
    if (remote.length === items.length) return { ...result, states };
    hold.remoteId = result.reservationId;
    return { ok: true, reservationId: this.keep(hold), states };
  }

  async commit(reservationId: string, actual?: Record<string, number>): Promise<boolean> {
    assertActual(actual);
    const hold = this.holds.get(reservationId);
    if (!hold) return this.inner.commit(reservationId, actual);
    // The actual amounts of the items reserved in Redis go there.
    let remoteActual: Record<string, number> | undefined;
    for (const key in actual) {
      const i = hold.items.findIndex((item) => item.key === key);
      if (i >= 0 && hold.leases[i]) continue;
      if (!hold.remoteId) throw new RangeError(`${key} is not reserved`);
      (remoteActual ??= {})[key] = actual[key]!;
    }
    this.holds.delete(reservationId);
    this.settleHold(hold, actual ?? {});
    return hold.remoteId ? this.inner.commit(hold.remoteId, remoteActual) : true;
  }

  async release(reservationId: string): Promise<boolean> {
    const hold = this.holds.get(reservationId);
    if (!hold) return this.inner.release(reservationId);
    this.holds.delete(reservationId);
    this.settleHold(hold, undefined);
    return hold.remoteId ? this.inner.release(hold.remoteId) : true;
  }

  putRecord(key: string, value: string, ttlMs: number): Promise<void> {
    return this.inner.putRecord(key, value, ttlMs);
  }

  records(prefix: string): Promise<Map<string, string>> {
    return this.inner.records(prefix);
  }

  deleteRecords(keys: readonly string[]): Promise<number> {
    return this.inner.deleteRecords(keys);
  }

  /** Other namespaces (login failures) have small limits that are never leased. */
  scoped(namespace: string): CounterStore {
    return this.inner.scoped(namespace);
  }

  /** Charges every lease before Redis closes (onApplicationShutdown), so a restart loses no usage. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    for (const slot of this.slots.values()) {
      this.endLeases(slot);
      for (const lease of slot.unsettled) this.carry(lease);
    }
    if (this.ending.size === 0) return;
    await withTimeout(Promise.allSettled([...this.ending]), SHUTDOWN_FLUSH_MS, 'lease charges').catch(() => undefined);
  }

  /**
   * The lease a reservation of `item` takes from, or undefined (Redis decides). Ends leases that are past their time,
   * full or granted under another limit or window, and asks for the next one ahead of need.
   */
  private leaseFor(item: ReserveItem, ttlMs: number, now: number): Lease | undefined {
    const { key, amount, limit } = item;
    let slot = this.slots.get(key);
    if (!(amount > 0) || limit < MIN_LEASE_UNITS * (LEASE_MARGIN + 1) * amount) {
      // Not leased at this limit (lowered by a policy update, say): a share still held goes back now.
      if (slot && amount > 0) this.endLeases(slot);
      return undefined;
    }
    if (!slot) {
      slot = { unsettled: new Set(), asking: false, units: MIN_LEASE_UNITS, retryAt: 0, base: 0, taken: 0, resetAt: 0 };
      this.slots.set(key, slot);
    }
    let lease = slot.current;
    while (lease && !(this.fits(lease, item, now) && fitsLimit(lease.taken + amount, lease.amount))) {
      lease = this.retire(slot, lease, now);
    }
    if (
      !slot.asking &&
      !slot.next &&
      now >= slot.retryAt &&
      (!lease || lease.taken + amount >= RENEW_AT * lease.amount || now >= lease.closesAt - RENEW_BEFORE_END_MS)
    ) {
      // Asked a microtask on: after the reservation that asked, in the same script run, so Redis's answer to that
      // reservation does not count the new lease.
      slot.asking = true;
      queueMicrotask(() => this.ask(slot, item, ttlMs));
    }
    return lease;
  }

  /** Ends the slot's current lease (sizing the next one by it); the lease granted next takes over, if any. */
  private retire(slot: LeaseSlot, current: Lease, now: number): Lease | undefined {
    this.resize(slot, current, now);
    this.end(current);
    slot.current = slot.next;
    slot.next = undefined;
    return slot.current;
  }

  /** The next lease's size after `lease` ends: double when it filled fast, half when it was mostly unused. */
  private resize(slot: LeaseSlot, lease: Lease, now: number): void {
    if (lease.taken >= lease.amount / 2 && now - lease.grantedAt < LEASE_LIFETIME_MS / 2) {
      slot.units = Math.min(MAX_LEASE_UNITS, lease.units * 2);
    } else if (lease.taken < lease.amount / 4) {
      slot.units = Math.max(MIN_LEASE_UNITS, lease.units / 2);
    }
  }

  private fits(lease: Lease, item: ReserveItem, now: number): boolean {
    return now < lease.closesAt && lease.limit === item.limit && sameWindow(lease.window, item.window);
  }

  /** Asks Redis for a lease in the background; the request that asked goes on without it. */
  private ask(slot: LeaseSlot, item: ReserveItem, ttlMs: number): void {
    const { key, window, limit } = item;
    const units = slot.units;
    const amount = units * item.amount;
    // Held in Redis until every reservation made from it can have ended.
    const leaseTtlMs = LEASE_LIFETIME_MS + ttlMs;
    this.inner.reserve([{ key, window, amount, limit: limit - LEASE_MARGIN * amount }], leaseTtlMs).then(
      (result) => {
        slot.asking = false;
        const now = this.clock.now();
        if (!result.ok) {
          // Too near the limit for this size: a smaller one is asked for by the next request, none below the least.
          if (units > MIN_LEASE_UNITS) slot.units = Math.max(MIN_LEASE_UNITS, units / 2);
          else slot.retryAt = now + LEASE_RETRY_MS;
          return;
        }
        const { used, resetAt } = result.states[0]!;
        const windowEnd = windowLayout(window) === 'fixed' ? resetAt : Infinity;
        const closesAt = Math.min(now + LEASE_LIFETIME_MS, windowEnd);
        const remote = result.reservationId;
        const lease = new Lease({
          key,
          window,
          limit,
          remote,
          amount,
          ttlMs,
          grantedAt: now,
          closesAt,
          slot,
          units,
        });
        slot.unsettled.add(lease);
        // Redis's figure holds this process's unsettled leases whole: what they really hold and used is `taken`.
        slot.base = used;
        for (const own of slot.unsettled) slot.base -= own.amount;
        slot.resetAt = resetAt;
        if (!slot.current) slot.current = lease;
        else if (!slot.next) slot.next = lease;
        else this.end(lease);
      },
      (err: unknown) => {
        slot.asking = false;
        slot.retryAt = this.clock.now() + LEASE_RETRY_MS;
        this.onError(err, 'lease');
      },
    );
  }

  /** A reservation made here ends: committed with `actual` (the reserved amount where it names none), or released. */
  private settleHold(hold: LocalHold, actual: Record<string, number> | undefined): void {
    for (let i = 0; i < hold.items.length; i++) {
      const lease = hold.leases[i];
      if (!lease) continue;
      const { key, amount } = hold.items[i]!;
      this.settlePart(lease, amount, actual ? (actual[key] ?? amount) : undefined);
    }
  }

  /** One item of a local reservation ends: committed with `used`, or released (undefined). */
  private settlePart(lease: Lease, amount: number, used: number | undefined): void {
    lease.open -= 1;
    lease.slot.taken += (used ?? 0) - amount;
    // Sums of fractional amounts drift; none open means none held.
    lease.held = lease.open === 0 ? 0 : lease.held - amount;
    if (used !== undefined) lease.used += used;
    if (lease.closed && lease.open === 0) this.charge(lease);
  }

  /**
   * No more local reservations from it. With none open, what it used is charged now; else when its last one ends, or
   * by a carry (`carry`) if they are still open `CARRY_AFTER_MS` later.
   */
  private end(lease: Lease): void {
    if (lease.closed) return;
    lease.closed = true;
    lease.endedAt = this.clock.now();
    if (lease.open === 0) this.charge(lease);
  }

  /**
   * The amount still open moves to a reservation of its own and what the lease's requests used is charged now, so
   * usage never waits on a long stream. Both calls go in one script run (carry first: the amount is never uncounted).
   */
  private carry(lease: Lease): void {
    if (lease.carried || lease.open === 0) return;
    lease.carried = true;
    // Only a lease's first carry moves it, so its reservation is still the one Redis granted.
    const { remote, used } = lease;
    const carry = this.inner.reserve(
      [{ key: lease.key, window: lease.window, amount: lease.held, limit: NO_LIMIT }],
      lease.ttlMs,
    );
    lease.remote = carry.then(
      (result) => (result.ok ? result.reservationId : undefined),
      (err: unknown) => {
        this.onError(err, 'lease carry');
        return undefined;
      },
    );
    lease.amount = lease.held;
    lease.used = 0;
    this.moveToBase(lease.slot, used);
    this.settleRemote(lease.key, remote as string, used);
  }

  /** Charges a closed lease with nothing open: its Redis reservation becomes what its requests used. */
  private charge(lease: Lease): void {
    lease.slot.unsettled.delete(lease);
    const { remote, used, key } = lease;
    this.moveToBase(lease.slot, used);
    if (typeof remote === 'string') this.settleRemote(key, remote, used);
    else void remote.then((id) => id && this.settleRemote(key, id, used));
  }

  /** What this process's unsettled leases of a counter hold in Redis, and what their reservations hold and used. */
  private ownShare(key: string): { amount: number; held: number; used: number } | undefined {
    const slot = this.slots.get(key);
    if (!slot || slot.unsettled.size === 0) return undefined;
    const share = { amount: 0, held: 0, used: 0 };
    for (const lease of slot.unsettled) {
      share.amount += lease.amount;
      share.held += lease.held;
      share.used += lease.used;
    }
    return share;
  }

  /** Usage a lease charges to Redis counts in `base` from now on, no longer in `taken`. */
  private moveToBase(slot: LeaseSlot, used: number): void {
    slot.base += used;
    slot.taken -= used;
  }

  private settleRemote(key: string, reservationId: string, used: number): void {
    const work = used > 0 ? this.inner.commit(reservationId, { [key]: used }) : this.inner.release(reservationId);
    const tracked = work.catch((err: unknown) => this.onError(err, 'lease charge'));
    this.ending.add(tracked);
    void tracked.finally(() => this.ending.delete(tracked));
  }

  /** Ends every lease of the counter. */
  private endLeases(slot: LeaseSlot): void {
    for (const lease of [slot.current, slot.next]) if (lease) this.end(lease);
    slot.current = slot.next = undefined;
  }

  /** Ends leases past their time while no request touches them, carries long-open ones, forgets idle counters. */
  private sweep(): void {
    const now = this.clock.now();
    for (const [key, slot] of this.slots) {
      if (slot.current && now >= slot.current.closesAt) this.retire(slot, slot.current, now);
      for (const lease of slot.unsettled) if (lease.closed && now - lease.endedAt >= CARRY_AFTER_MS) this.carry(lease);
      if (!slot.current && !slot.next && !slot.asking && slot.unsettled.size === 0 && now >= slot.retryAt) {
        this.slots.delete(key);
      }
    }
  }

  /** Takes `amount` from the lease; returns the counter's state as the reservation reports it. */
  private take(lease: Lease, amount: number): ReservedState {
    const { slot } = lease;
    lease.open += 1;
    lease.held += amount;
    slot.taken += amount;
    return { used: slot.base + slot.taken, resetAt: slot.resetAt };
  }

  /**
   * Keeps a local reservation until settled, under an id of this process (never sent to Redis); expired ones (never
   * settled) are released from the oldest end.
   */
  private keep(hold: LocalHold): string {
    const id = `${this.idPrefix}${++this.lastId}`;
    // Reservations never settled are rare (a request that dies without its finally): looked for now and then.
    if (this.lastId % PRUNE_EVERY === 0 || this.holds.size >= MAX_LOCAL_HOLDS) {
      const now = this.clock.now();
      for (const [oldId, old] of this.holds) {
        if (old.until > now && this.holds.size < MAX_LOCAL_HOLDS) break;
        this.holds.delete(oldId);
        this.settleHold(old, undefined);
      }
    }
    this.holds.set(id, hold);
    return id;
  }
}

function sameWindow(a: CounterWindow, b: CounterWindow): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  if (a.kind === 'calendar' && b.kind === 'calendar') {
    return a.unit === b.unit && (a.quarterStartMonth ?? 1) === (b.quarterStartMonth ?? 1);
  }
  return (a as { ms: number }).ms === (b as { ms: number }).ms;
}
