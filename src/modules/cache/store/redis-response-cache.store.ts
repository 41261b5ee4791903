import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ResponseCacheStore, type CacheStoreStats, type StoredEntry } from './response-cache.store.js';

/** Keys read per SCAN step when counting entries for the stats route. */
const SCAN_COUNT = 500;

/**
 * The scale-out store: each entry is a Redis string `<prefix>:cache:e:<key>` with a PX expiry, beside its request
 * index `<prefix>:cache:r:<request_id>` (same expiry), so every replica serves what any replica wrote. Hits and
 * misses are INCR counters under `<prefix>:cache:stats:`. Entry count and bytes are counted by SCAN when the stats
 * route asks (a management call, not the request path); Redis' own `maxmemory` policy bounds the size.
 */
export class RedisResponseCacheStore extends ResponseCacheStore {
  readonly kind = 'redis' as const;
  private readonly base: string;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly logger: Logger,
  ) {
    super();
    this.base = `${prefix}:cache`;
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.redis.get(this.entryKey(key))) ?? undefined;
  }

  async put(entry: StoredEntry, _maxEntries: number): Promise<void> {
    await this.redis
      .multi()
      .set(this.entryKey(entry.key), entry.value, 'PX', entry.ttlMs)
      .set(this.requestKey(entry.requestId), entry.key, 'PX', entry.ttlMs)
      .exec();
  }

  async delete(key: string): Promise<boolean> {
    const value = await this.redis.get(this.entryKey(key));
    if (value === null) return false;
    const requestId = requestIdOf(value);
    const keys = [this.entryKey(key), ...(requestId ? [this.requestKey(requestId)] : [])];
    return (await this.redis.del(...keys)) > 0;
  }

  async keyOfRequest(requestId: string): Promise<string | undefined> {
    const key = await this.redis.get(this.requestKey(requestId));
    if (key === null) return undefined;
    return (await this.redis.exists(this.entryKey(key))) ? key : undefined;
  }

  count(outcome: 'hit' | 'miss'): void {
    this.redis.incr(`${this.base}:stats:${outcome === 'hit' ? 'hits' : 'misses'}`).catch((err: Error) => {
      this.logger.warn({ err: err.message }, 'cache statistics not counted');
    });
  }

  async stats(): Promise<CacheStoreStats> {
    let entries = 0;
    let bytes = 0;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.base}:e:*`, 'COUNT', SCAN_COUNT);
      cursor = next;
      if (keys.length === 0) continue;
      const pipeline = this.redis.pipeline();
      for (const key of keys) pipeline.strlen(key);
      for (const [err, length] of (await pipeline.exec()) ?? []) {
        if (err || typeof length !== 'number' || length === 0) continue;
        entries++;
        bytes += length;
      }
    } while (cursor !== '0');
    const [hits, misses] = await this.redis.mget(`${this.base}:stats:hits`, `${this.base}:stats:misses`);
    return { entries, bytes, hits: Number(hits ?? 0), misses: Number(misses ?? 0) };
  }

  private entryKey(key: string): string {
    return `${this.base}:e:${key}`;
  }

  private requestKey(requestId: string): string {
    return `${this.base}:r:${requestId}`;
  }
}

function requestIdOf(value: string): string | undefined {
  try {
    const parsed = JSON.parse(value) as { request_id?: unknown };
    return typeof parsed.request_id === 'string' ? parsed.request_id : undefined;
  } catch {
    return undefined;
  }
}
