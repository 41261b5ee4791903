import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CounterStore, type CounterWindow, type ReserveItem } from '../../src/core/redis/counter.store.js';
import { LEASE_MARGIN, MIN_LEASE_UNITS } from '../../src/core/redis/counter-leases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_REDIS_URL } from '../helpers/test-env.js';

const MINUTE: CounterWindow = { kind: 'fixed', ms: 60_000 };
const HOLD_MS = 60_000;
const key = (name: string) => `test:lease-${name}:${randomUUID()}`;
const item = (k: string, amount: number, limit: number): ReserveItem => ({ key: k, amount, limit, window: MINUTE });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** As the governance enforcer reserves: decided in this process when a lease covers every item, else in Redis. */
async function reserve(store: CounterStore, items: ReserveItem[]) {
  const local = store.reserveLocally(items, HOLD_MS);
  if (local) return { result: local, local: true };
  return { result: await store.reserve(items, HOLD_MS), local: false };
}

/** Reserves until a lease answers locally (the first reservations ask for it and go to Redis). */
async function untilLeased(store: CounterStore, items: ReserveItem[], actual?: Record<string, number>) {
  for (let i = 0; i < 100; i++) {
    const { result, local } = await reserve(store, items);
    if (!result.ok) throw new Error('refused while waiting for a lease');
    await store.commit(result.reservationId, actual);
    if (local) return i + 1;
    await sleep(5);
  }
  throw new Error('no lease was granted');
}

/**
 * Leases of the Redis counters (src/core/redis/counter-leases.ts) between two replicas of the gateway sharing one
 * Redis prefix: far from a limit a replica reserves locally from a share it holds in Redis; nothing is overspent or
 * lost, and near the limit every reservation is exact.
 */
describe.skipIf(!TEST_REDIS_URL)('counter leases across replicas', () => {
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    one = await startTestApp();
    two = await startTestApp({ redisPrefix: one.config.redis_prefix });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('far from the limit, reservations are decided locally; their usage reaches Redis as the lease ends', async () => {
    const [mine, other] = [one.app.get(CounterStore), two.app.get(CounterStore)];
    const k = key('far');
    const items = [item(k, 0.5, 1000)];
    // Reserved 0.5 each, really used 0.25 each.
    const before = await untilLeased(mine, items, { [k]: 0.25 });
    const reported: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = mine.reserveLocally(items, HOLD_MS);
      expect(r?.ok).toBe(true);
      if (!r?.ok) return;
      reported.push(r.states[0]!.used);
      expect(await mine.commit(r.reservationId, { [k]: 0.25 })).toBe(true);
    }
    const spent = (before + 10) * 0.25;
    // Each local reservation reports the counter's usage plus itself: Redis's figure at the grant (a reservation
    // outstanding then counts at its reserved amount until the next grant) and what this replica's leases used since.
    expect(reported[0]).toBeGreaterThanOrEqual(before * 0.25 + 0.5);
    expect(reported[0]).toBeLessThanOrEqual(before * 0.5 + 0.5);
    expect(reported.map((used) => used - reported[0]!)).toEqual(Array.from({ length: 10 }, (_, i) => i * 0.25));
    // This replica reads its own leases' usage at once; the other sees the share held until the lease ends.
    expect(await mine.get(k, MINUTE)).toMatchObject({ value: spent, reserved: 0 });
    const seen = await other.get(k, MINUTE);
    expect(seen.value).toBeLessThan(spent);
    expect(seen.reserved).toBeGreaterThan(0);
    await expect
      .poll(() => other.get(k, MINUTE), { timeout: 4000, interval: 100 })
      .toMatchObject({ value: spent, reserved: 0 });
  });

  it('near the limit nothing is leased, and a lease granted under another limit is not used', async () => {
    const mine = one.app.get(CounterStore);
    const near = key('near');
    const smallLimit = MIN_LEASE_UNITS * (LEASE_MARGIN + 1) - 1;
    for (let i = 0; i < 20; i++) {
      expect(mine.reserveLocally([item(near, 1, smallLimit)], HOLD_MS)).toBeUndefined();
      const r = await mine.reserve([item(near, 1, smallLimit)], HOLD_MS);
      expect(r.ok && (await mine.commit(r.reservationId))).toBe(true);
      await sleep(5);
    }
    expect(await two.app.get(CounterStore).get(near, MINUTE)).toMatchObject({ value: 20, reserved: 0 });

    const changed = key('changed');
    await untilLeased(mine, [item(changed, 1, 10_000)]);
    // The limit was lowered (a policy update): the lease ends and its share goes back at once (not when its second is
    // up), and the reservation goes to Redis.
    const used = (await mine.get(changed, MINUTE)).value;
    expect(mine.reserveLocally([item(changed, 1, 50)], HOLD_MS)).toBeUndefined();
    await expect
      .poll(() => two.app.get(CounterStore).get(changed, MINUTE), { timeout: 400, interval: 20 })
      .toMatchObject({ value: used, reserved: 0 });
  });

  it('two replicas draining a limit of 1000 in waves: exactly 1000 served in all, and Redis counts 1000', async () => {
    const stores = [one.app.get(CounterStore), two.app.get(CounterStore)];
    const k = key('drain');
    const items = [item(k, 1, 1000)];
    let served = 0;
    let local = 0;
    let idleWaves = 0;
    // A replica can be refused while the other still holds an unused share; that share is used by the other's next
    // wave or comes back when its lease ends, so waves go on until both are refused after every lease has ended.
    for (let wave = 0; wave < 200 && idleWaves < 2; wave++) {
      const results = await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const store = stores[i % 2]!;
          const r = await reserve(store, items);
          if (r.result.ok) await store.commit(r.result.reservationId);
          return r;
        }),
      );
      const ok = results.filter((r) => r.result.ok);
      served += ok.length;
      local += ok.filter((r) => r.local).length;
      if (ok.length > 0) {
        idleWaves = 0;
        await sleep(2);
      } else {
        idleWaves += 1;
        await sleep(1500);
      }
    }
    expect(served).toBe(1000);
    expect(local).toBeGreaterThan(100);
    for (const store of stores) {
      await expect.poll(() => store.get(k, MINUTE), { timeout: 4000 }).toMatchObject({ value: 1000, reserved: 0 });
    }
  });

  it('a lease ended with a reservation still open charges what was used and carries what is open', async () => {
    const [mine, other] = [one.app.get(CounterStore), two.app.get(CounterStore)];
    const k = key('carry');
    const items = [item(k, 2, 10_000)];
    const before = await untilLeased(mine, items, { [k]: 1 });
    const open = mine.reserveLocally(items, HOLD_MS);
    const done = mine.reserveLocally(items, HOLD_MS);
    expect(open?.ok && done?.ok).toBe(true);
    if (!open?.ok || !done?.ok) return;
    await mine.commit(done.reservationId, { [k]: 1 });
    // The lease ends (its lifetime), is carried a second later: the other replica sees the usage, and the open
    // reservation's 2 still held.
    await expect
      .poll(() => other.get(k, MINUTE), { timeout: 5000, interval: 100 })
      .toMatchObject({ value: before + 1, reserved: 2 });
    expect(await mine.commit(open.reservationId, { [k]: 1.5 })).toBe(true);
    await expect
      .poll(() => other.get(k, MINUTE), { timeout: 2000, interval: 50 })
      .toMatchObject({ value: before + 2.5, reserved: 0 });
  });

  it('with governance.counter_leases false, every reservation is a Redis script run', async () => {
    const strict = await startTestApp({
      redisPrefix: one.config.redis_prefix,
      config: { governance: { counter_leases: false } },
    });
    try {
      const store = strict.app.get(CounterStore);
      const k = key('off');
      for (let i = 0; i < 20; i++) {
        expect(store.reserveLocally([item(k, 1, 10_000)], HOLD_MS)).toBeUndefined();
        const r = await store.reserve([item(k, 1, 10_000)], HOLD_MS);
        expect(r.ok && (await store.commit(r.reservationId))).toBe(true);
        await sleep(5);
      }
      // Nothing held back: the other replica reads every reservation's usage at once.
      expect(await one.app.get(CounterStore).get(k, MINUTE)).toMatchObject({ value: 20, reserved: 0 });
    } finally {
      await strict.close();
    }
  });

  it('a replica that shuts down charges its leases first', async () => {
    const third = await startTestApp({ redisPrefix: one.config.redis_prefix });
    const store = third.app.get(CounterStore);
    const k = key('shutdown');
    const items = [item(k, 1, 10_000)];
    const before = await untilLeased(store, items);
    for (let i = 0; i < 5; i++) {
      const r = store.reserveLocally(items, HOLD_MS);
      expect(r?.ok && (await store.commit(r.reservationId))).toBe(true);
    }
    await third.close();
    expect(await one.app.get(CounterStore).get(k, MINUTE)).toMatchObject({ value: before + 5, reserved: 0 });
  });
});
