import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { calendarPeriod } from '../../src/core/redis/counter-window.js';
import { CounterStore, type CounterWindow, type ReserveItem } from '../../src/core/redis/counter.store.js';
import { MemoryCounterStore } from '../../src/core/redis/memory-counter.store.js';
import { RedisCounterStore } from '../../src/core/redis/redis-counter.store.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';

const MODE = `${RUN_MODE}${TEST_REDIS_URL ? '+redis' : ''}`;
const MINUTE: CounterWindow = { kind: 'fixed', ms: 60_000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const until = (epochMs: number) => sleep(epochMs - Date.now());
const key = (name = 'k') => `test:${name}:${randomUUID()}`;
const item = (k: string, amount: number, limit: number, window: CounterWindow = MINUTE): ReserveItem => ({
  key: k,
  amount,
  limit,
  window,
});

let gw: TestApp;
beforeAll(async () => {
  gw = await startTestApp();
});
afterAll(async () => {
  await gw?.close();
});

/**
 * The same contract on both implementations: the app's own store (Redis when REDIS_URL is set, else the in-process
 * one), and, in the Redis run, the in-process twin beside it.
 */
const subjects: Array<{ name: string; store: () => CounterStore }> = [
  { name: `the app store (${MODE})`, store: () => gw.app.get(CounterStore) },
];
if (TEST_REDIS_URL) {
  const twin = new MemoryCounterStore();
  subjects.push({ name: 'the in-process twin', store: () => twin });
}

describe.each(subjects)('counter store: $name', ({ store: storeOf }) => {
  it('a fixed window starts at the first hit (not at a read) and resets at its end', async () => {
    const store = storeOf();
    const k = key('fixed');
    const w: CounterWindow = { kind: 'fixed', ms: 300 };
    expect(await store.get(k, w)).toMatchObject({ value: 0, reserved: 0 });
    await sleep(100);
    const before = Date.now();
    const first = await store.increment(k, 2, w);
    expect(first.value).toBe(2);
    expect(first.resetAt).toBeGreaterThanOrEqual(before + 300);
    expect(first.resetAt).toBeLessThanOrEqual(Date.now() + 300);
    const second = await store.increment(k, 1.5, w);
    expect(second).toEqual({ value: 3.5, reserved: 0, resetAt: first.resetAt });
    expect(await store.get(k, w)).toEqual(second);

    await until(first.resetAt + 10);
    expect((await store.get(k, w)).value).toBe(0);
    // Timers may fire a millisecond before the wall clock says so: the new window is measured from now.
    const resumed = Date.now();
    const next = await store.increment(k, 1, w);
    expect(next.value).toBe(1);
    expect(next.resetAt).toBeGreaterThanOrEqual(resumed + 300);
    expect(next.resetAt).toBeGreaterThan(first.resetAt + 300);
  });

  it('a rolling window sums exactly the amounts of the last windowMs', async () => {
    const store = storeOf();
    const k = key('rolling');
    const w: CounterWindow = { kind: 'rolling', ms: 500 };
    expect(await store.get(k, w)).toMatchObject({ value: 0, reserved: 0 });
    const t0 = Date.now();
    const first = await store.increment(k, 1, w);
    expect(first.value).toBe(1);
    expect(first.resetAt).toBeGreaterThanOrEqual(t0 + 500);
    await until(t0 + 250);
    const t1 = Date.now();
    expect((await store.increment(k, 2, w)).value).toBe(3);
    // Only the first hit has left.
    await until(first.resetAt + 20);
    const middle = await store.get(k, w);
    expect(middle.value).toBe(2);
    expect(middle.resetAt).toBeGreaterThanOrEqual(t1 + 500);
    await until(middle.resetAt + 20);
    expect((await store.get(k, w)).value).toBe(0);
  });

  it('increments are exact under concurrency, fractional amounts included', async () => {
    const store = storeOf();
    const fixed = key('burst');
    const rolling = key('burst-rolling');
    const w: CounterWindow = { kind: 'rolling', ms: 60_000 };
    await Promise.all(
      Array.from({ length: 200 }, () =>
        Promise.all([store.increment(fixed, 1, MINUTE), store.increment(rolling, 0.1, w)]),
      ),
    );
    expect((await store.get(fixed, MINUTE)).value).toBe(200);
    expect((await store.get(rolling, w)).value).toBeCloseTo(20, 9);
  });

  it('reserve is all or nothing and counts against the limit until committed or released', async () => {
    const store = storeOf();
    const [a, b] = [key('a'), key('b')];
    await store.increment(b, 8, MINUTE);

    const refused = await store.reserve([item(a, 5, 10), item(b, 5, 10)], 5_000);
    expect(refused).toEqual({
      ok: false,
      key: b,
      current: 8,
      reserved: 0,
      limit: 10,
      retryAfterMs: expect.any(Number),
    });
    if (refused.ok) return;
    expect(refused.retryAfterMs).toBeGreaterThan(55_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(await store.get(a, MINUTE)).toMatchObject({ value: 0, reserved: 0 });

    const reserved = await store.reserve([item(a, 5, 10), item(b, 2, 10)], 5_000);
    expect(reserved.ok).toBe(true);
    if (!reserved.ok) return;
    expect(await store.get(a, MINUTE)).toMatchObject({ value: 0, reserved: 5 });
    expect(await store.get(b, MINUTE)).toMatchObject({ value: 8, reserved: 2 });
    expect(await store.reserve([item(b, 1, 10)], 5_000)).toMatchObject({ ok: false, current: 8, reserved: 2 });

    // The actual amount replaces the estimate where given; the reserved amount is charged elsewhere.
    expect(await store.commit(reserved.reservationId, { [a]: 3 })).toBe(true);
    expect(await store.get(a, MINUTE)).toMatchObject({ value: 3, reserved: 0 });
    expect(await store.get(b, MINUTE)).toMatchObject({ value: 10, reserved: 0 });
    expect(await store.commit(reserved.reservationId)).toBe(false);
    expect(await store.release(reserved.reservationId)).toBe(false);
    expect(await store.commit(randomUUID())).toBe(false);
  });

  it('release drops a reservation without usage; an actual amount for a key not reserved is refused', async () => {
    const store = storeOf();
    const k = key('release');
    const reserved = await store.reserve([item(k, 4, 5)], 5_000);
    if (!reserved.ok) throw new Error('refused');
    await expect(store.commit(reserved.reservationId, { [key('other')]: 1 })).rejects.toThrow(/not reserved/);
    expect(await store.release(reserved.reservationId)).toBe(true);
    expect(await store.get(k, MINUTE)).toMatchObject({ value: 0, reserved: 0 });
    expect(await store.release(reserved.reservationId)).toBe(false);
    expect((await store.reserve([item(k, 5, 5)], 5_000)).ok).toBe(true);
  });

  it('a reservation neither committed nor released stops counting after its ttl, and a late commit still charges', async () => {
    const store = storeOf();
    const k = key('expiry');
    const first = await store.reserve([item(k, 1, 1)], 200);
    if (!first.ok) throw new Error('refused');
    expect((await store.reserve([item(k, 1, 1)], 200)).ok).toBe(false);
    await sleep(230);
    expect(await store.get(k, MINUTE)).toMatchObject({ value: 0, reserved: 0 });
    const second = await store.reserve([item(k, 1, 1)], 5_000);
    expect(second.ok).toBe(true);
    // The slow request that held the first reservation finished after all: it is charged, not held.
    expect(await store.commit(first.reservationId)).toBe(true);
    expect(await store.get(k, MINUTE)).toMatchObject({ value: 1, reserved: 1 });
  });

  it('a late commit and a reservation made at once (one script run on Redis) leave the other holds counted', async () => {
    const store = storeOf();
    const k = key('late-and-new');
    const kept = await store.reserve([item(k, 2, 10)], 60_000);
    const late = await store.reserve([item(k, 3, 10)], 200);
    if (!kept.ok || !late.ok) throw new Error('refused');
    await sleep(230);
    // The late hold expired but nothing has read the counter since: the commit ends it, the reservation after it
    // drops expired holds. The ended one is not dropped twice, and the kept one still counts.
    const [committed, next] = await Promise.all([
      store.commit(late.reservationId),
      store.reserve([item(k, 1, 10)], 60_000),
    ]);
    expect(committed).toBe(true);
    expect(next).toMatchObject({ ok: true, states: [{ used: 3 + 2 + 1 }] });
    expect(await store.get(k, MINUTE)).toMatchObject({ value: 3, reserved: 3 });
    expect(kept.ok && (await store.release(kept.reservationId))).toBe(true);
    expect(await store.get(k, MINUTE)).toMatchObject({ value: 3, reserved: 1 });
  });

  it('200 concurrent reserves of 1 with limit 50: exactly 50 succeed, and committing them uses exactly 50', async () => {
    const store = storeOf();
    const k = key('race');
    const results = await Promise.all(Array.from({ length: 200 }, () => store.reserve([item(k, 1, 50)], 10_000)));
    const ok = results.filter((r) => r.ok);
    expect(ok).toHaveLength(50);
    expect(await store.get(k, MINUTE)).toMatchObject({ value: 0, reserved: 50 });
    await Promise.all(ok.map((r) => r.ok && store.commit(r.reservationId)));
    expect(await store.get(k, MINUTE)).toMatchObject({ value: 50, reserved: 0 });
    expect(await store.reserve([item(k, 1, 50)], 10_000)).toMatchObject({ ok: false, current: 50, reserved: 0 });
  });

  it('fractional budgets: 0.1 three times fits a limit of 0.3, a fourth does not', async () => {
    const store = storeOf();
    const k = key('usd');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await store.reserve([item(k, 0.1, 0.3)], 5_000);
      if (!r.ok) throw new Error(`refused at ${i}`);
      ids.push(r.reservationId);
    }
    expect((await store.reserve([item(k, 0.01, 0.3)], 5_000)).ok).toBe(false);
    for (const id of ids) await store.commit(id);
    const state = await store.get(k, MINUTE);
    expect(state.value).toBeCloseTo(0.3, 12);
    expect(state.reserved).toBe(0);
  });

  it('reserving on a rolling window: committed usage is a hit at commit time; retryAfterMs is when the oldest leaves', async () => {
    const store = storeOf();
    const k = key('rolling-limit');
    const w: CounterWindow = { kind: 'rolling', ms: 400 };
    const r = await store.reserve([item(k, 2, 3, w)], 5_000);
    if (!r.ok) throw new Error('refused');
    expect(await store.get(k, w)).toMatchObject({ value: 0, reserved: 2 });
    // Nothing used yet, so nothing will drop: the whole window is the best guess.
    expect(await store.reserve([item(k, 2, 3, w)], 5_000)).toMatchObject({ ok: false, retryAfterMs: 400 });
    const committedAt = Date.now();
    await store.commit(r.reservationId);
    const refused = await store.reserve([item(k, 2, 3, w)], 5_000);
    expect(refused).toMatchObject({ ok: false, current: 2, reserved: 0 });
    if (refused.ok) return;
    expect(refused.retryAfterMs).toBeGreaterThan(300);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(400);
    await until(committedAt + 420 + 20);
    expect((await store.reserve([item(k, 2, 3, w)], 5_000)).ok).toBe(true);
  });

  it('reset forgets usage and holds; calendar windows share the fixed layout', async () => {
    const store = storeOf();
    const k = key('reset');
    const day: CounterWindow = { kind: 'calendar', unit: 'day' };
    await store.increment(k, 3, MINUTE);
    expect((await store.reserve([item(k, 2, 10, day)], 5_000)).ok).toBe(true);
    // Switching a running window to calendar alignment keeps its usage.
    expect(await store.get(k, day)).toMatchObject({ value: 3, reserved: 2 });
    await store.reset(k);
    expect(await store.get(k, MINUTE)).toMatchObject({ value: 0, reserved: 0 });
  });

  it('calendar windows start over on UTC day, week, month, quarter and year boundaries', async () => {
    const store = storeOf();
    const k = (unit: string) => `${unit}:${key('calendar')}`;
    const units = ['day', 'week', 'month', 'quarter', 'year'] as const;
    const names = Object.fromEntries(units.map((u) => [u, k(u)]));
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // Sunday 31 December 2034, a tenth of a second before the new year.
      vi.setSystemTime(new Date('2034-12-31T23:59:59.900Z'));
      for (const unit of units) {
        const state = await store.increment(names[unit]!, 1, { kind: 'calendar', unit });
        expect(state).toEqual({ value: 1, reserved: 0, resetAt: Date.parse('2035-01-01T00:00:00Z') });
      }
      vi.setSystemTime(new Date('2035-01-01T00:00:00.100Z'));
      for (const unit of units) {
        expect((await store.get(names[unit]!, { kind: 'calendar', unit })).value).toBe(0);
      }
      const month = await store.increment(names.month!, 1, { kind: 'calendar', unit: 'month' });
      expect(month).toEqual({ value: 1, reserved: 0, resetAt: Date.parse('2035-02-01T00:00:00Z') });
    } finally {
      vi.useRealTimers();
    }
  });

  it('live counters and holds survive the periodic clean-up of expired ones', async () => {
    const store = storeOf();
    const [fixed, rolling, held, gone] = [key('live'), key('live-rolling'), key('live-held'), key('gone')];
    const w: CounterWindow = { kind: 'rolling', ms: 60_000 };
    await store.increment(fixed, 1, MINUTE);
    await store.increment(rolling, 2, w);
    await store.increment(gone, 1, { kind: 'fixed', ms: 1 });
    const hold = await store.reserve([item(held, 3, 10, w)], 60_000);
    await sleep(5);
    // The in-process store sweeps every 1024 operations.
    for (let i = 0; i < 3; i++) await Promise.all(Array.from({ length: 400 }, () => store.get(key('noise'), MINUTE)));
    expect((await store.get(fixed, MINUTE)).value).toBe(1);
    expect((await store.get(rolling, w)).value).toBe(2);
    expect((await store.get(gone, MINUTE)).value).toBe(0);
    expect(await store.get(held, w)).toMatchObject({ value: 0, reserved: 3 });
    expect(hold.ok && (await store.commit(hold.reservationId))).toBe(true);
  });

  it('refuses bad arguments before storing anything', async () => {
    const store = storeOf();
    const k = key('bad');
    await expect(store.increment(k, -1, MINUTE)).rejects.toThrow(RangeError);
    await expect(store.increment(k, Number.NaN, MINUTE)).rejects.toThrow(RangeError);
    await expect(store.increment(k, 1, { kind: 'fixed', ms: 0 })).rejects.toThrow(RangeError);
    await expect(store.reserve([item(k, 1, 5), item(k, 1, 5)], 1_000)).rejects.toThrow(/twice/);
    await expect(store.reserve([item(k, 1, 5)], 0)).rejects.toThrow(RangeError);
    await expect(store.reserve([], 1_000)).rejects.toThrow(RangeError);
    expect(await store.get(k, MINUTE)).toMatchObject({ value: 0, reserved: 0 });
  });

  it('a namespace is a separate set of counters, the same for every caller', async () => {
    const store = storeOf();
    const k = key('ns');
    await store.increment(k, 1, MINUTE);
    await store.scoped('test-space').increment(k, 5, MINUTE);
    expect((await store.get(k, MINUTE)).value).toBe(1);
    expect((await store.scoped('test-space').get(k, MINUTE)).value).toBe(5);
    expect(() => store.scoped('Bad Space')).toThrow(RangeError);
  });

  it('records: read by prefix, replaced, deleted, and gone after their TTL', async () => {
    const store = storeOf();
    const p = `rec-${randomUUID()}`;
    await store.putRecord(`${p}:a`, 'one', 60_000);
    await store.putRecord(`${p}:b`, 'two', 300);
    await store.putRecord(`${p}x:c`, 'other prefix', 60_000);
    expect(await store.records(`${p}:`)).toEqual(
      new Map([
        [`${p}:a`, 'one'],
        [`${p}:b`, 'two'],
      ]),
    );
    await store.putRecord(`${p}:a`, 'replaced', 60_000);
    expect((await store.records(`${p}:`)).get(`${p}:a`)).toBe('replaced');
    await sleep(400);
    expect([...(await store.records(`${p}:`)).keys()]).toEqual([`${p}:a`]);
    expect(await store.deleteRecords([`${p}:a`, `${p}:missing`])).toBe(1);
    expect(await store.records(`${p}:`)).toEqual(new Map());
    expect([...(await store.records(p)).values()]).toEqual(['other prefix']);
    await store.deleteRecords([`${p}x:c`]);
  });
});

describe('calendar periods', () => {
  const at = (iso: string) => Date.parse(iso);
  const period = (start: string, end: string) => ({ start: at(start), end: at(end) });

  it('are UTC days, Monday weeks, months, quarters (from any start month) and years', () => {
    const leapDay = at('2024-02-29T13:00:00Z');
    expect(calendarPeriod('day', leapDay)).toEqual(period('2024-02-29T00:00Z', '2024-03-01T00:00Z'));
    expect(calendarPeriod('week', leapDay)).toEqual(period('2024-02-26T00:00Z', '2024-03-04T00:00Z'));
    expect(calendarPeriod('week', at('2024-03-03T23:59:59Z'))).toEqual(
      period('2024-02-26T00:00Z', '2024-03-04T00:00Z'),
    );
    expect(calendarPeriod('week', at('2024-03-04T00:00:00Z'))).toEqual(
      period('2024-03-04T00:00Z', '2024-03-11T00:00Z'),
    );
    expect(calendarPeriod('month', leapDay)).toEqual(period('2024-02-01T00:00Z', '2024-03-01T00:00Z'));
    expect(calendarPeriod('quarter', leapDay)).toEqual(period('2024-01-01T00:00Z', '2024-04-01T00:00Z'));
    expect(calendarPeriod('quarter', leapDay, 2)).toEqual(period('2024-02-01T00:00Z', '2024-05-01T00:00Z'));
    expect(calendarPeriod('quarter', leapDay, 12)).toEqual(period('2023-12-01T00:00Z', '2024-03-01T00:00Z'));
    expect(calendarPeriod('quarter', at('2024-12-15T00:00Z'), 12)).toEqual(
      period('2024-12-01T00:00Z', '2025-03-01T00:00Z'),
    );
    expect(calendarPeriod('year', leapDay)).toEqual(period('2024-01-01T00:00Z', '2025-01-01T00:00Z'));
  });
});

describe.skipIf(!TEST_REDIS_URL)('counter store in Redis, shared by replicas', () => {
  let replica: TestApp;
  let redis: Redis;
  beforeAll(async () => {
    replica = await startTestApp({ redisPrefix: gw.config.redis_prefix });
    redis = new Redis(TEST_REDIS_URL!);
  });
  afterAll(async () => {
    redis?.disconnect();
    await replica?.close();
  });

  it('200 concurrent reserves of 1 with limit 50 over two replicas: exactly 50 succeed', async () => {
    const [one, two] = [gw.app.get(CounterStore), replica.app.get(CounterStore)];
    expect([one.kind, two.kind]).toEqual(['redis', 'redis']);
    const budget = key('shared-budget');
    const requests = key('shared-requests');
    const items = [item(budget, 0.25, 12.5), item(requests, 1, 1000, { kind: 'rolling', ms: 60_000 })];
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? one : two).reserve(items, 10_000)),
    );
    const ok = results.filter((r) => r.ok);
    expect(ok).toHaveLength(50);
    await Promise.all(ok.map((r, i) => r.ok && (i % 2 ? one : two).commit(r.reservationId)));
    expect(await two.get(budget, MINUTE)).toMatchObject({ value: 12.5, reserved: 0 });
    // The request counter is far from its limit: a replica may hold a lease on it (counter-leases.ts), counted as
    // reserved by the other until it ends, within a second and a sweep.
    await expect
      .poll(() => one.get(requests, { kind: 'rolling', ms: 60_000 }), { timeout: 3000, interval: 100 })
      .toMatchObject({ value: 50, reserved: 0 });

    const hits = key('shared-hits');
    await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? one : two).increment(hits, 1, MINUTE)));
    expect((await one.get(hits, MINUTE)).value).toBe(100);
  });

  it('counters written by the earlier layout (no counts or expiry in meta) read, reserve and settle on', async () => {
    const base = `${gw.config.redis_prefix}:counters`;
    const store = gw.app.get(CounterStore);
    const now = Date.now();
    const fixed = key('legacy-fixed');
    const end = now + 60_000;
    await redis.hset(`${base}:fixed:meta:${fixed}`, { v: '3', e: String(end), h: '2' });
    await redis.zadd(`${base}:fixed:held:${fixed}`, now + 30_000, `${randomUUID()}|2`);
    const rolling = key('legacy-rolling');
    const ROLLING: CounterWindow = { kind: 'rolling', ms: 60_000 };
    await redis.hset(`${base}:rolling:meta:${rolling}`, { v: '5', n: '2' });
    await redis.zadd(`${base}:rolling:hits:${rolling}`, now - 1000, '1|2', now - 500, '2|3');
    for (const sub of ['fixed:meta', 'fixed:held']) await redis.pexpire(`${base}:${sub}:${fixed}`, 120_000);
    for (const sub of ['rolling:meta', 'rolling:hits']) await redis.pexpire(`${base}:${sub}:${rolling}`, 120_000);

    expect(await store.get(fixed, MINUTE)).toEqual({ value: 3, reserved: 2, resetAt: end });
    expect(await store.get(rolling, ROLLING)).toEqual({ value: 5, reserved: 0, resetAt: now - 1000 + 60_000 });
    const r = await store.reserve([item(fixed, 1, 6), item(rolling, 1, 6, ROLLING)], 10_000);
    expect(r).toMatchObject({ ok: true, states: [{ used: 6 }, { used: 6 }] });
    expect(await store.reserve([item(fixed, 1, 6)], 10_000)).toMatchObject({ ok: false, current: 3, reserved: 3 });
    expect(r.ok && (await store.commit(r.reservationId))).toBe(true);
    expect(await store.get(fixed, MINUTE)).toMatchObject({ value: 4, reserved: 2 });
    expect(await store.get(rolling, ROLLING)).toMatchObject({ value: 6, reserved: 0 });
    const keys = await redis.keys(`${base}:*:legacy-*`);
    expect(keys.length).toBe(4);
    for (const k of keys) expect(await redis.pttl(k)).toBeGreaterThan(60_000);
  });

  it('every key of a counter expires together, one to two minutes after nothing in it counts', async () => {
    const base = `${gw.config.redis_prefix}:counters`;
    const store = gw.app.get(CounterStore);
    const rolling = key('expiry-rolling');
    const r = await store.reserve([item(rolling, 1, 5, { kind: 'rolling', ms: 30_000 })], 90_000);
    expect(r.ok && (await store.commit(r.reservationId))).toBe(true);
    const held = await store.reserve([item(rolling, 1, 5, { kind: 'rolling', ms: 30_000 })], 90_000);
    expect(held.ok).toBe(true);
    const ttls = await Promise.all(
      ['meta', 'hits', 'held'].map((sub) => redis.pttl(`${base}:rolling:${sub}:${rolling}`)),
    );
    // The hold counts for 90 s (longer than the newest hit's 30 s): the keys live 60 to 120 s beyond it.
    for (const ttl of ttls) expect(ttl).toBeGreaterThan(90_000 + 59_000);
    for (const ttl of ttls) expect(ttl).toBeLessThanOrEqual(90_000 + 120_000);
    expect(Math.max(...ttls) - Math.min(...ttls)).toBeLessThan(1000);
  });

  it('calls made while a script run is in flight go together in the next one, each with its own answer', async () => {
    // A store of our own on its own connection, so the script runs counted are this test's alone.
    const connection = new Redis(TEST_REDIS_URL!);
    let runs = 0;
    const evalsha = connection.evalsha.bind(connection) as (...args: unknown[]) => Promise<unknown>;
    (connection as unknown as { evalsha: (...args: unknown[]) => Promise<unknown> }).evalsha = (...args) => {
      runs++;
      return evalsha(...args);
    };
    try {
      const store = new RedisCounterStore(connection, gw.config.redis_prefix);
      const shared = key('batch-shared');
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) => store.reserve([item(shared, 1, 30), item(key(`own-${i}`), 2, 5)], 10_000)),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(30);
      // Made in one tick, the 60 calls go in one run (a NOSCRIPT retry would add one).
      expect(runs).toBeLessThanOrEqual(3);
      const ok = results.flatMap((r) => (r.ok ? [r] : []));
      // Each answer is that call's own: the shared counter's usage counts up through the batch, one by one.
      expect(ok.map((r) => r.states[0]!.used).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
      const refused = results.find((r) => !r.ok);
      expect(refused).toMatchObject({ ok: false, key: shared, current: 0, reserved: 30, limit: 30 });

      // Settled together: commits, releases and a second settlement of one reservation in the same run.
      runs = 0;
      const first = ok[0]!.reservationId;
      const settled = await Promise.all([
        store.commit(first),
        store.release(first),
        ...ok.slice(1).map((r, i) => (i % 2 ? store.release(r.reservationId) : store.commit(r.reservationId))),
      ]);
      expect(runs).toBeLessThanOrEqual(3);
      expect(settled.filter((done) => done)).toHaveLength(30);
      expect(settled.slice(0, 2)).toEqual([true, false]);
      // 1 (the first) + 15 commits of the 29 others, nothing held.
      expect(await store.get(shared, MINUTE)).toMatchObject({ value: 16, reserved: 0 });
    } finally {
      connection.disconnect();
    }
  });

  it('a script run that fails fails every call in it, and the next run goes on', async () => {
    const connection = new Redis(TEST_REDIS_URL!);
    try {
      const store = new RedisCounterStore(connection, gw.config.redis_prefix);
      const broken = key('batch-broken');
      const fine = key('batch-fine');
      // A held key of the wrong type: the script's first command on it fails, and with it the whole run.
      await connection.set(`${gw.config.redis_prefix}:counters:fixed:held:${broken}`, 'not a sorted set', 'PX', 60_000);
      await connection.hset(`${gw.config.redis_prefix}:counters:fixed:meta:${broken}`, {
        c: '1',
        h: '1',
        x: String(Date.now() + 180_000),
      });
      await connection.pexpire(`${gw.config.redis_prefix}:counters:fixed:meta:${broken}`, 60_000);
      // The first call goes alone; the two made while it is in flight go together in the next run.
      const first = store.increment(fine, 1, MINUTE);
      await new Promise((resolve) => setImmediate(resolve));
      const together = await Promise.allSettled([
        store.reserve([item(broken, 1, 10)], 10_000),
        store.increment(fine, 1, MINUTE),
      ]);
      expect(await first).toMatchObject({ value: 1 });
      expect(together.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect(String((together[0] as PromiseRejectedResult).reason)).toMatch(/WRONGTYPE/);
      // Nothing of the failed run was written: the fine counter holds only the first call's hit.
      expect(await store.get(fine, MINUTE)).toMatchObject({ value: 1, reserved: 0 });
    } finally {
      connection.disconnect();
    }
  });

  it('reading the records reads their index, not a SCAN of the keyspace (2,000 other keys beside)', async () => {
    const prefix = gw.config.redis_prefix;
    const [one, two] = [gw.app.get(CounterStore), replica.app.get(CounterStore)];
    const filler = Array.from({ length: 2_000 }, (_, i) => [`${prefix}:counters:filler:${i}`, 'x']).flat();
    await redis.mset(...filler);
    try {
      const p = `idx-${randomUUID()}`;
      await one.putRecord(`${p}:open`, 'from one', 60_000);
      // A key of a record's name written around the store has no index entry: a SCAN would find it, the index not.
      await redis.set(`${prefix}:counters:record:${p}:unindexed`, 'around the store', 'PX', 60_000);
      expect(await two.records(`${p}:`)).toEqual(new Map([[`${p}:open`, 'from one']]));
      // The index expires like every other key, after the longest-lived record it holds and a margin.
      const ttl = await redis.pttl(`${prefix}:counters:record-index`);
      expect(ttl).toBeGreaterThan(60_000);
      expect(ttl).toBeLessThanOrEqual(120_000);
      await two.deleteRecords([`${p}:open`]);
      expect(await one.records(`${p}:`)).toEqual(new Map());
      expect(await redis.zscore(`${prefix}:counters:record-index`, `${prefix}:counters:record:${p}:open`)).toBeNull();
    } finally {
      await redis.del(...filler.filter((_, i) => i % 2 === 0));
    }
  });

  it('keys live under <redis_prefix>:counters:, expire, and carry no unreadable name', async () => {
    const prefix = gw.config.redis_prefix;
    const store = gw.app.get(CounterStore);
    const odd = `user name with spaces ${randomBytes(4).toString('hex')} ü`;
    const r = await store.reserve([item(odd, 1, 5, { kind: 'rolling', ms: 60_000 })], 5_000);
    if (!r.ok) throw new Error('refused');
    await store.increment(odd, 1, { kind: 'rolling', ms: 60_000 });
    const keys = await redis.keys(`${prefix}:counters:*`);
    const mine = keys.filter((k) => k.includes(':rolling:') || k.includes(r.reservationId));
    expect(mine.some((k) => k === `${prefix}:counters:reservation:${r.reservationId}`)).toBe(true);
    expect(mine.filter((k) => /:rolling:(meta|hits|held):#[0-9a-f]{64}$/.test(k)).length).toBeGreaterThanOrEqual(3);
    expect(keys.join()).not.toContain('spaces');
    for (const k of keys) expect(await redis.pttl(k)).toBeGreaterThan(0);
    await store.release(r.reservationId);
    expect(await redis.exists(`${prefix}:counters:reservation:${r.reservationId}`)).toBe(0);
  });
});
