import { randomUUID } from 'node:crypto';
import type { ChainableCommander, Redis } from 'ioredis';
import { Clock, SystemClock } from '../clock/clock.js';
import { CounterBatcher, type CounterBatchWriter } from './counter-batch.js';
import {
  assertActual,
  assertNamespace,
  assertRecordTtl,
  assertReserve,
  CounterStore,
  DEFAULT_COUNTER_NAMESPACE,
  LATE_COMMIT_GRACE_MS,
  storedCounterName,
  type CounterState,
  type ReserveItem,
  type ReserveResult,
} from './counter.store.js';
import { assertAmount, assertWindow, newWindowEnd, windowLayout, type CounterWindow } from './counter-window.js';

/** Counters whose keys are kept built, per layout, at most. */
const MAX_KNOWN_KEYS = 10_000;

type CounterKeys = readonly [meta: string, hits: string, held: string];

/** Records of own reservations kept in memory at most (beyond it the oldest go; settling them reads Redis). */
const MAX_OWN_RECORDS = 100_000;

/** What a reservation record keeps, so commit and release need only its id. */
interface ReservationRecord {
  items: Array<{ key: string; window: CounterWindow; amount: number }>;
}

/** How long past its record's expiry an index entry is kept (clock skew between replicas). */
const RECORD_INDEX_MARGIN_MS = 60_000;

/**
 * A record and its index entry, in one step. The entry is scored past the record's expiry by a margin (a replica whose
 * clock runs ahead never prunes a live record's entry); entries past their score are pruned; the index itself expires
 * after the longest-lived record it holds, like every other key of the store.
 */
const PUT_RECORD_SCRIPT = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], KEYS[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[2], ARGV[5]) end
`;

/** Runs a MULTI; a failed command in it fails the call, as it would alone. Resolves to each command's reply. */
async function execOrThrow(multi: ChainableCommander): Promise<unknown[]> {
  const replies = await multi.exec();
  if (!replies) throw new Error('Redis aborted the transaction');
  return replies.map(([err, reply]) => {
    if (err) throw err;
    return reply;
  });
}

/**
 * Counters in Redis: calls go in batches, one Lua script run each (`CounterBatcher`). Keys:
 * `<redis_prefix>:<namespace>:<layout>:<meta|hits|held>:<name>` (layout `fixed` or `rolling`, name readable or
 * `#<sha256>`) and `<redis_prefix>:<namespace>:reservation:<id>`; records `<redis_prefix>:<namespace>:record:<key>`
 * and their index `<redis_prefix>:<namespace>:record-index`.
 * Every key a script touches is passed in KEYS; Redis Cluster is still not supported (one reservation spans counters
 * of different owners, which would sit in different slots).
 */
export class RedisCounterStore extends CounterStore {
  readonly kind = 'redis' as const;
  private readonly base: string;
  /**
   * The records of this process's own outstanding reservations, so settling one needs no round trip to read it back
   * (the script still ends it only if its record is still in Redis). Oldest first; dropped once settled or expired.
   */
  private readonly own = new Map<string, { items: ReservationRecord['items']; until: number }>();
  private readonly batcher: CounterBatcher;
  /** Each counter's Redis keys by name, per layout (building them, a hash for odd names included, costs per call). */
  private readonly keysOf = { fixed: new Map<string, CounterKeys>(), rolling: new Map<string, CounterKeys>() };

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    namespace = DEFAULT_COUNTER_NAMESPACE,
    private readonly clock: Clock = new SystemClock(),
    batcher?: CounterBatcher,
  ) {
    super();
    assertNamespace(namespace);
    this.base = `${prefix}:${namespace}`;
    this.batcher = batcher ?? new CounterBatcher(redis, clock);
  }

  /** Shares this store's batches (keys are whole in every call). */
  scoped(namespace: string): CounterStore {
    return new RedisCounterStore(this.redis, this.prefix, namespace, this.clock, this.batcher);
  }

  async increment(key: string, amount: number, window: CounterWindow): Promise<CounterState> {
    assertWindow(window);
    assertAmount(amount);
    return this.run(key, window, String(amount));
  }

  async get(key: string, window: CounterWindow): Promise<CounterState> {
    assertWindow(window);
    return this.run(key, window, '');
  }

  async reset(key: string): Promise<void> {
    const name = storedCounterName(key);
    const keys = (['fixed', 'rolling'] as const).flatMap((layout) =>
      (['meta', 'hits', 'held'] as const).map((sub) => `${this.base}:${layout}:${sub}:${name}`),
    );
    await this.redis.del(...keys);
  }

  async reserve(items: ReserveItem[], ttlMs: number): Promise<ReserveResult> {
    assertReserve(items, ttlMs);
    const reservationId = randomUUID();
    const record: ReservationRecord = { items: items.map(({ key, window, amount }) => ({ key, window, amount })) };
    const raw = JSON.stringify(record);
    return this.batcher.run((batch, now) => {
      const recordIndex = batch.record(this.recordKey(reservationId));
      const call: unknown[] = ['r', recordIndex, ttlMs, ttlMs + LATE_COMMIT_GRACE_MS, batch.text(raw), items.length];
      for (const item of items) {
        const { amount, limit, window } = item;
        call.push(
          this.counterOf(batch, item),
          this.param(window, now),
          amount,
          limit,
          heldMember(reservationId, amount),
        );
      }
      batch.add(call);
      return (answer): ReserveResult => {
        const result = answer as [number, ...Array<string | number>];
        if (result[0] === 1) {
          this.remember(reservationId, record.items, now + ttlMs + LATE_COMMIT_GRACE_MS);
          const states = items.map((_, i) => ({ used: Number(result[1 + 2 * i]), resetAt: Number(result[2 + 2 * i]) }));
          return { ok: true, reservationId, states };
        }
        const [, index, current, reserved, retryAfterMs] = result as unknown as [0, number, string, string, string];
        const item = items[index - 1] as ReserveItem;
        return {
          ok: false,
          key: item.key,
          current: Number(current),
          reserved: Number(reserved),
          limit: item.limit,
          retryAfterMs: Math.ceil(Number(retryAfterMs)),
        };
      };
    });
  }

  async commit(reservationId: string, actual?: Record<string, number>): Promise<boolean> {
    assertActual(actual);
    return this.settle(reservationId, 'commit', actual ?? {});
  }

  async release(reservationId: string): Promise<boolean> {
    return this.settle(reservationId, 'release', {});
  }

  /**
   * A record is its key with a TTL plus an entry in this store's record index (a sorted set scored by expiry), so
   * reading every record (a circuit re-read, every 5 s on each replica) reads the index instead of SCANning the whole
   * Redis keyspace, which grows with every counter and cache entry of every replica.
   */
  async putRecord(key: string, value: string, ttlMs: number): Promise<void> {
    assertRecordTtl(ttlMs);
    // Real time, as Redis's own TTLs: not the injected clock.
    const now = Date.now();
    const lifetime = ttlMs + RECORD_INDEX_MARGIN_MS;
    await this.redis.eval(
      PUT_RECORD_SCRIPT,
      2,
      this.storedRecordKey(key),
      this.recordIndexKey(),
      value,
      ttlMs,
      now + lifetime,
      now,
      lifetime,
    );
  }

  async records(prefix: string): Promise<Map<string, string>> {
    const base = this.storedRecordKey('');
    const indexed = await this.redis.zrangebyscore(this.recordIndexKey(), Date.now(), '+inf');
    const keys = indexed.filter((key) => key.startsWith(base + prefix));
    const out = new Map<string, string>();
    if (keys.length === 0) return out;
    const values = await this.redis.mget(...keys);
    keys.forEach((key, i) => {
      const value = values[i];
      // An entry outlives its record by the margin: an expired or deleted record is simply gone.
      if (value !== null && value !== undefined) out.set(key.slice(base.length), value);
    });
    return out;
  }

  async deleteRecords(keys: readonly string[]): Promise<number> {
    if (keys.length === 0) return 0;
    const stored = keys.map((key) => this.storedRecordKey(key));
    const [deleted] = await execOrThrow(
      this.redis
        .multi()
        .del(...stored)
        .zrem(this.recordIndexKey(), ...stored),
    );
    return Number(deleted);
  }

  /**
   * The record is this process's own (kept since the reserve) or read from Redis (the windows it names need
   * JavaScript's calendar to resolve); the script ends it only if it is still in Redis (a reservation id is never
   * reused), so two settles of one reservation cannot both count.
   */
  private async settle(reservationId: string, mode: 'commit' | 'release', actual: Record<string, number>) {
    const recordKey = this.recordKey(reservationId);
    const mine = this.own.get(reservationId);
    this.own.delete(reservationId);
    let items = mine?.items;
    if (!items) {
      const raw = await this.redis.get(recordKey);
      if (raw === null) return false;
      items = (JSON.parse(raw) as ReservationRecord).items;
    }
    for (const key of Object.keys(actual)) {
      if (!items.some((item) => item.key === key)) throw new RangeError(`${key} is not reserved`);
    }
    return this.batcher.run((batch, now) => {
      const call: unknown[] = ['s', batch.record(recordKey), mode, items.length];
      for (const item of items) {
        const amount = actual[item.key] ?? item.amount;
        const member = heldMember(reservationId, item.amount);
        call.push(this.counterOf(batch, item), this.param(item.window, now), member, amount, String(amount));
      }
      batch.add(call);
      return (answer) => answer === 1;
    });
  }

  /** Keeps a reservation's record until it is settled or can no longer be; expired ones go from the oldest end. */
  private remember(id: string, items: ReservationRecord['items'], until: number): void {
    const now = this.clock.now();
    for (const [oldId, entry] of this.own) {
      if (entry.until > now && this.own.size < MAX_OWN_RECORDS) break;
      this.own.delete(oldId);
    }
    this.own.set(id, { items, until });
  }

  private run(key: string, window: CounterWindow, amount: string): Promise<CounterState> {
    return this.batcher.run((batch, now) => {
      const number = amount === '' ? false : Number(amount);
      batch.add(['i', this.counterOf(batch, { key, window }), this.param(window, now), number, amount]);
      return (answer) => {
        const [value, reserved, resetAt] = (answer as string[]).map(Number) as [number, number, number];
        return { value, reserved, resetAt };
      };
    });
  }

  /** The end of a fixed window starting now, or the rolling window's length. */
  private param(window: CounterWindow, now: number): number {
    return window.kind === 'rolling' ? window.ms : newWindowEnd(window, now);
  }

  private counterOf(batch: CounterBatchWriter, { key, window }: { key: string; window: CounterWindow }): number {
    return batch.counter(this.counterKeys(key, window), windowLayout(window));
  }

  private counterKeys(key: string, window: CounterWindow): CounterKeys {
    const layout = windowLayout(window);
    const known = this.keysOf[layout];
    let keys = known.get(key);
    if (!keys) {
      const at = `${this.base}:${layout}`;
      const name = storedCounterName(key);
      keys = [`${at}:meta:${name}`, `${at}:hits:${name}`, `${at}:held:${name}`];
      // The same few counters serve every request; any caller-chosen names (login failures) cannot grow it unbounded.
      if (known.size >= MAX_KNOWN_KEYS) known.clear();
      known.set(key, keys);
    }
    return keys;
  }

  /** A `putRecord` record (its key as given: records are read back by prefix). */
  private storedRecordKey(key: string): string {
    return `${this.base}:record:${key}`;
  }

  private recordIndexKey(): string {
    return `${this.base}:record-index`;
  }

  private recordKey(reservationId: string): string {
    return `${this.base}:reservation:${reservationId}`;
  }
}

/** A hold's member in held: the scripts read its amount back from the text after `|`. */
function heldMember(reservationId: string, amount: number): string {
  return `${reservationId}|${amount}`;
}
