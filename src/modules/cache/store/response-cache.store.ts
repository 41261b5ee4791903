/** What the cache routes report (`GET /api/cache/stats`). */
export interface CacheStoreStats {
  entries: number;
  /** Bytes of the stored answers (their JSON text). */
  bytes: number;
  hits: number;
  misses: number;
}

/** One stored answer: its JSON text (a CachedAnswer) under its key, and the request that wrote it. */
export interface StoredEntry {
  key: string;
  requestId: string;
  value: string;
  ttlMs: number;
}

/**
 * Where cached answers live: Redis when `redis_url` is set (every replica reads what any wrote; entries expire with
 * PX), else this process's memory (an LRU bounded by `max_entries` and by bytes). Chosen like the core counter store.
 * Each entry is indexed by the request that wrote it, for `DELETE /api/cache/clear/{request_id}`.
 */
export abstract class ResponseCacheStore {
  abstract readonly kind: 'redis' | 'memory';

  /** The entry's JSON text, or undefined when absent or expired. */
  abstract get(key: string): Promise<string | undefined>;

  /** Stores (replacing any entry of the key); `maxEntries` bounds the in-process store. */
  abstract put(entry: StoredEntry, maxEntries: number): Promise<void>;

  /** Deletes the entry and its request index; false when there was none. */
  abstract delete(key: string): Promise<boolean>;

  /** The key of the entry a request wrote (while that entry lives). */
  abstract keyOfRequest(requestId: string): Promise<string | undefined>;

  /** Counts a lookup's outcome (never throws: statistics do not fail a request). */
  abstract count(outcome: 'hit' | 'miss'): void;

  abstract stats(): Promise<CacheStoreStats>;
}
