import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CacheFactory } from '../../src/core/cache/cache.factory.js';
import type { InvalidatedCache, InvalidatedCacheOptions } from '../../src/core/cache/invalidated-cache.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';

const MODE = `${RUN_MODE}${TEST_REDIS_URL ? '+redis' : ''}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loader that counts its calls and answers only when told to. */
function controlledLoader<V>() {
  const pending: Array<{ key: string; resolve: (value: V | null) => void; reject: (err: Error) => void }> = [];
  const load = (key: string) =>
    new Promise<V | null>((resolve, reject) => {
      pending.push({ key, resolve, reject });
    });
  return { load, pending };
}

/** A loader answering `<key>#<call number>` at once, so a reload is visible in the value. */
function countingLoader() {
  const calls: string[] = [];
  const load = async (key: string) => {
    calls.push(key);
    return `${key}#${calls.length}`;
  };
  return { load, calls };
}

describe(`invalidated cache (${MODE})`, () => {
  let gw: TestApp;
  const caches: Array<InvalidatedCache<unknown>> = [];
  beforeAll(async () => {
    gw = await startTestApp();
  });
  afterAll(async () => {
    for (const cache of caches) cache.close();
    await gw?.close();
  });

  function create<V>(options: Partial<InvalidatedCacheOptions> = {}, app = gw): InvalidatedCache<V> {
    const cache = app.app.get(CacheFactory).create<V>({
      topic: `test.${randomUUID()}`,
      ttlMs: 60_000,
      negativeTtlMs: 5_000,
      maxEntries: 100,
      ...options,
    });
    caches.push(cache);
    return cache;
  }

  it('a burst of lookups of one key is one load; later lookups are served from memory', async () => {
    const cache = create<string>();
    const loader = controlledLoader<string>();
    const burst = Array.from({ length: 20 }, () => cache.getOrLoad('k', loader.load));
    expect(loader.pending).toHaveLength(1);
    loader.pending[0]!.resolve('value');
    expect(await Promise.all(burst)).toEqual(Array(20).fill('value'));
    expect(await cache.getOrLoad('k', loader.load)).toBe('value');
    expect(loader.pending).toHaveLength(1);
  });

  it('a load that started before an invalidation does not store its result, and nobody joins it afterwards', async () => {
    const cache = create<string>();
    const loader = controlledLoader<string>();
    const stale = cache.getOrLoad('k', loader.load);
    await cache.invalidate();
    const fresh = cache.getOrLoad('k', loader.load);
    expect(loader.pending).toHaveLength(2);
    // The fresh load finishes first; the stale one must not overwrite it.
    loader.pending[1]!.resolve('after the change');
    expect(await fresh).toBe('after the change');
    loader.pending[0]!.resolve('before the change');
    expect(await stale).toBe('before the change');
    expect(cache.get('k')).toBe('after the change');

    // The same with a hand-made load (begin/set).
    const startedAt = cache.begin();
    await cache.invalidate('k');
    cache.set('k', 'stale', startedAt);
    expect(cache.get('k')).toBeUndefined();
  });

  it('invalidate(key) drops that key only; invalidate() drops everything', async () => {
    const cache = create<string>();
    const loader = countingLoader();
    await cache.getOrLoad('a', loader.load);
    await cache.getOrLoad('b', loader.load);
    await cache.invalidate('a');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe('b#2');
    expect(await cache.getOrLoad('a', loader.load)).toBe('a#3');
    await cache.invalidate();
    expect([cache.get('a'), cache.get('b'), cache.size]).toEqual([undefined, undefined, 0]);
  });

  it('values expire after ttlMs, "not found" after negativeTtlMs', async () => {
    const cache = create<string>({ ttlMs: 300, negativeTtlMs: 100 });
    let found = true;
    const calls: string[] = [];
    const load = async (key: string) => {
      calls.push(key);
      return found ? `${key}-value` : null;
    };
    await cache.getOrLoad('known', load);
    found = false;
    expect(await cache.getOrLoad('unknown', load)).toBeNull();
    expect(await cache.getOrLoad('unknown', load)).toBeNull();
    expect(calls).toEqual(['known', 'unknown']);
    await sleep(130);
    await cache.getOrLoad('unknown', load);
    expect(calls).toEqual(['known', 'unknown', 'unknown']);
    expect(cache.get('known')).toBe('known-value');
    await sleep(200);
    expect(cache.get('known')).toBeUndefined();
  });

  it('a negativeTtlMs of 0 never caches "not found"', async () => {
    const cache = create<string>({ negativeTtlMs: 0 });
    const calls: string[] = [];
    const load = async (key: string) => {
      calls.push(key);
      return null;
    };
    await cache.getOrLoad('x', load);
    await cache.getOrLoad('x', load);
    expect(calls).toEqual(['x', 'x']);
  });

  it('past maxEntries the least recently used entry goes', async () => {
    const cache = create<string>({ maxEntries: 2 });
    const loader = countingLoader();
    await cache.getOrLoad('a', loader.load);
    await cache.getOrLoad('b', loader.load);
    expect(cache.get('a')).toBe('a#1');
    await cache.getOrLoad('c', loader.load);
    expect(cache.size).toBe(2);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['a#1', undefined, 'c#3']);
  });

  it('an entry read since it was stored is spared once, then goes unless read again', async () => {
    const cache = create<string>({ maxEntries: 3 });
    const loader = countingLoader();
    for (const key of ['a', 'b', 'c']) await cache.getOrLoad(key, loader.load);
    expect(cache.get('a')).toBe('a#1');
    await cache.getOrLoad('d', loader.load); // a is spared (read); b, the oldest unread, goes
    expect(cache.size).toBe(3);
    expect(cache.get('c')).toBe('c#3');
    await cache.getOrLoad('e', loader.load); // a (spared, unread since) goes; c was read, so it stays
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d'), cache.get('e')]).toEqual([
      undefined,
      undefined,
      'c#3',
      'd#4',
      'e#5',
    ]);
  });

  it('a failed load is shared by the burst and not cached', async () => {
    const cache = create<string>();
    const loader = controlledLoader<string>();
    const burst = [cache.getOrLoad('k', loader.load), cache.getOrLoad('k', loader.load)];
    loader.pending[0]!.reject(new Error('database down'));
    for (const lookup of burst) await expect(lookup).rejects.toThrow('database down');
    const retry = cache.getOrLoad('k', loader.load);
    expect(loader.pending).toHaveLength(2);
    loader.pending[1]!.resolve('back');
    expect(await retry).toBe('back');
  });

  it('the factory refuses options that cannot bound the cache', () => {
    const factory = gw.app.get(CacheFactory);
    const options = { topic: 't', ttlMs: 1000, negativeTtlMs: 0, maxEntries: 10 };
    expect(() => factory.create({ ...options, maxEntries: 0 })).toThrow(/maxEntries/);
    expect(() => factory.create({ ...options, ttlMs: Number.NaN })).toThrow(/ttlMs/);
  });

  describe.skipIf(!TEST_REDIS_URL)('across replicas sharing the Redis prefix', () => {
    let replica: TestApp;
    beforeAll(async () => {
      replica = await startTestApp({ redisPrefix: gw.config.redis_prefix });
    });
    afterAll(async () => {
      await replica?.close();
    });

    it('an invalidation on one replica drops the entries of the other', async () => {
      const topic = `test.${randomUUID()}`;
      const here = create<string>({ topic });
      const there = create<string>({ topic }, replica);
      const loader = countingLoader();
      await there.getOrLoad('a', loader.load);
      await there.getOrLoad('b', loader.load);
      await here.invalidate('a');
      await vi.waitFor(() => expect(there.get('a')).toBeUndefined(), { timeout: 2000, interval: 10 });
      expect(there.get('b')).toBe('b#2');
      await here.invalidate();
      await vi.waitFor(() => expect(there.size).toBe(0), { timeout: 2000, interval: 10 });
    });
  });
});
