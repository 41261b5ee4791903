import type { InvalidationBus } from '../redis/invalidation.bus.js';

export interface InvalidatedCacheOptions {
  /**
   * Bus topic of the cached data. A message without a key clears the cache on every replica; a message naming a key
   * drops only that key.
   */
  topic: string;
  /** Safety net should an invalidation be lost: entries are reloaded after this long anyway. */
  ttlMs: number;
  /** How long "not found" (a `null` value) is remembered; 0 remembers nothing. */
  negativeTtlMs: number;
  /** Bounded memory: past this many entries the oldest one not read lately goes (CLOCK eviction). */
  maxEntries: number;
}

interface Entry<V> {
  value: V | null;
  until: number;
  /** Read since it was stored or last spared by eviction (the second chance of CLOCK eviction). */
  used: boolean;
}

/**
 * An in-memory cache of values that live in the database, kept honest by the invalidation bus: whoever commits a change
 * calls `invalidate`, and every replica drops what it holds. Built by `CacheFactory.create`.
 *
 * A load that started before an invalidation does not store its (possibly stale) result; concurrent `getOrLoad` calls
 * for one key share one load.
 */
export class InvalidatedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loads = new Map<string, Promise<V | null>>();
  /** Bumped on every invalidation, of one key or all: any load in flight then is stale. */
  private generation = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly options: InvalidatedCacheOptions,
    private readonly bus: InvalidationBus,
  ) {
    this.unsubscribe = bus.subscribe(options.topic, (key) => this.drop(key));
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached value (`null`: known not to exist), or `undefined` when absent or expired. */
  get(key: string): V | null | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // A flag, not a move to the end of the map: a hit is on every request's path, an eviction rare.
    entry.used = true;
    return entry.value;
  }

  /** The cached value, or the loader's (stored unless invalidated meanwhile). One load per key at a time. */
  getOrLoad(key: string, loader: (key: string) => Promise<V | null>): Promise<V | null> {
    const cached = this.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    const pending = this.loads.get(key);
    if (pending) return pending;
    const startedAt = this.begin();
    const load = (async () => {
      const value = await loader(key);
      this.set(key, value, startedAt);
      return value;
    })();
    this.loads.set(key, load);
    // Failures are not cached: the next call loads again.
    const forget = () => {
      if (this.loads.get(key) === load) this.loads.delete(key);
    };
    void load.then(forget, forget);
    return load;
  }

  /** Marks the start of a load done by hand; pass the result to `set`. */
  begin(): number {
    return this.generation;
  }

  /** Stores a loaded value unless an invalidation came after `begin()`. */
  set(key: string, value: V | null, startedAt: number): void {
    if (startedAt !== this.generation) return;
    const ttlMs = value === null ? this.options.negativeTtlMs : this.options.ttlMs;
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) this.evictOne();
    this.entries.set(key, { value, until: Date.now() + ttlMs, used: false });
  }

  /**
   * Drops the oldest entry not read since it was stored or last spared; a read one is spared once and goes to the
   * end (CLOCK, LRU's usual approximation). Ends within two passes: a spared entry comes round again unread.
   */
  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (!entry.used) return;
      entry.used = false;
      this.entries.set(key, entry);
    }
  }

  /** After a committed change: drops the key (or everything) here, synchronously, and on every other replica. */
  invalidate(key?: string): Promise<void> {
    return this.bus.publish(this.options.topic, key);
  }

  /**
   * Drops everything here only: for a change every replica learns on its own (a runtime setting each one applies after
   * its reload), where a message would be one per replica.
   */
  forgetLocally(): void {
    this.drop(undefined);
  }

  /** Stops listening to the bus (a cache made for a shorter life than the app's). */
  close(): void {
    this.unsubscribe();
    this.drop(undefined);
  }

  private drop(key: string | undefined): void {
    this.generation++;
    if (key === undefined) {
      this.entries.clear();
      this.loads.clear();
    } else {
      this.entries.delete(key);
      this.loads.delete(key);
    }
  }
}
