import { Injectable } from '@nestjs/common';
import { InvalidationBus } from '../redis/invalidation.bus.js';
import { InvalidatedCache, type InvalidatedCacheOptions } from './invalidated-cache.js';

/**
 * Builds the in-memory caches of database-backed data (keys, providers, policies, registrations, profiles), each wired
 * to its invalidation topic. Create one per kind of data, once, in the owning service's constructor:
 *
 *   this.cache = caches.create<CachedThing>({ topic: 'things', ttlMs: 60_000, negativeTtlMs: 5_000, maxEntries: 10_000 });
 *   const thing = await this.cache.getOrLoad(id, (id) => this.loadFromDatabase(id));
 *   // after committing a change:
 *   await this.cache.invalidate();      // or invalidate(id) to drop one key
 */
@Injectable()
export class CacheFactory {
  constructor(private readonly bus: InvalidationBus) {}

  create<V>(options: InvalidatedCacheOptions): InvalidatedCache<V> {
    for (const name of ['ttlMs', 'negativeTtlMs', 'maxEntries'] as const) {
      if (!Number.isFinite(options[name]) || options[name] < 0) throw new Error(`cache ${options.topic}: bad ${name}`);
    }
    if (options.maxEntries < 1) throw new Error(`cache ${options.topic}: maxEntries must be at least 1`);
    return new InvalidatedCache<V>(options, this.bus);
  }
}
