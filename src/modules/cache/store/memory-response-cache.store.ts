import type { Clock } from '../../../core/clock/clock.js';
import { ResponseCacheStore, type CacheStoreStats, type StoredEntry } from './response-cache.store.js';

/** Bytes of answers the in-process store keeps at most, whatever `max_entries` allows. */
export const MEMORY_CACHE_MAX_BYTES = 64 * 1024 * 1024;

interface MemoryEntry {
  requestId: string;
  value: string;
  bytes: number;
  expiresAt: number;
}

/**
 * The embedded mode's store: a Map in least-recently-used order (a read moves the entry to the end), bounded by
 * `max_entries` and by MEMORY_CACHE_MAX_BYTES; the oldest entries go first. Expired entries are dropped when read or
 * when evicting.
 */
export class MemoryResponseCacheStore extends ResponseCacheStore {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, MemoryEntry>();
  private readonly byRequest = new Map<string, string>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;

  constructor(
    private readonly clock: Clock,
    private readonly maxBytes = MEMORY_CACHE_MAX_BYTES,
  ) {
    super();
  }

  get(key: string): Promise<string | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return Promise.resolve(undefined);
    if (entry.expiresAt <= this.clock.now()) {
      this.remove(key, entry);
      return Promise.resolve(undefined);
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return Promise.resolve(entry.value);
  }

  put(stored: StoredEntry, maxEntries: number): Promise<void> {
    // A string's UTF-16 length is close enough to its size for a bound (the exact byte count costs a pass).
    const bytes = stored.value.length;
    if (bytes > this.maxBytes) return Promise.resolve();
    const existing = this.entries.get(stored.key);
    if (existing) this.remove(stored.key, existing);
    const entry = {
      requestId: stored.requestId,
      value: stored.value,
      bytes,
      expiresAt: this.clock.now() + stored.ttlMs,
    };
    this.entries.set(stored.key, entry);
    this.byRequest.set(stored.requestId, stored.key);
    this.bytes += bytes;
    for (const [key, oldest] of this.entries) {
      if (this.entries.size <= maxEntries && this.bytes <= this.maxBytes) break;
      this.remove(key, oldest);
    }
    return Promise.resolve();
  }

  delete(key: string): Promise<boolean> {
    const entry = this.entries.get(key);
    if (!entry) return Promise.resolve(false);
    const live = entry.expiresAt > this.clock.now();
    this.remove(key, entry);
    return Promise.resolve(live);
  }

  keyOfRequest(requestId: string): Promise<string | undefined> {
    const key = this.byRequest.get(requestId);
    const entry = key === undefined ? undefined : this.entries.get(key);
    return Promise.resolve(entry && entry.expiresAt > this.clock.now() ? key : undefined);
  }

  count(outcome: 'hit' | 'miss'): void {
    if (outcome === 'hit') this.hits++;
    else this.misses++;
  }

  stats(): Promise<CacheStoreStats> {
    const now = this.clock.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.remove(key, entry);
    return Promise.resolve({ entries: this.entries.size, bytes: this.bytes, hits: this.hits, misses: this.misses });
  }

  private remove(key: string, entry: MemoryEntry): void {
    this.entries.delete(key);
    if (this.byRequest.get(entry.requestId) === key) this.byRequest.delete(entry.requestId);
    this.bytes -= entry.bytes;
  }
}
