import { Injectable } from '@nestjs/common';
import { CacheFactory } from '../../../core/cache/cache.factory.js';
import type { InvalidatedCache } from '../../../core/cache/invalidated-cache.js';
import type { VirtualKeyMcpGrant } from '../../../core/auth/principal.js';

/** What the hot path needs to accept or refuse a virtual key value. */
export interface CachedVirtualKey {
  id: string;
  name: string;
  team_id: string | null;
  customer_id: string | null;
  is_active: boolean;
  /** Epoch ms, checked at use time (a cached key can expire while cached). */
  expires_at: number | null;
  /** Epoch ms when this particular value stops working (rotated out with a grace period). */
  retires_at: number | null;
  /** The key's MCP grants, frozen (the MCP catalog compares them by identity). */
  mcp_grants: readonly VirtualKeyMcpGrant[];
}

/** Invalidation topic of every virtual key change. */
export const VIRTUAL_KEYS_TOPIC = 'governance.virtual-keys';

/**
 * Virtual key lookups by value hash, in memory. Any change to any virtual key clears it here and on every replica
 * sharing the Redis prefix. Changes are rare; lookups happen on every request.
 */
@Injectable()
export class VirtualKeyCache {
  private readonly cache: InvalidatedCache<CachedVirtualKey>;

  constructor(caches: CacheFactory) {
    this.cache = caches.create<CachedVirtualKey>({
      topic: VIRTUAL_KEYS_TOPIC,
      // Safety net should an invalidation message be lost; every change invalidates explicitly.
      ttlMs: 60_000,
      // Unknown values are remembered briefly, so a flood of bad keys does not become a flood of queries.
      negativeTtlMs: 5_000,
      maxEntries: 50_000,
    });
  }

  /** The key behind a value hash (`null`: no such value), loaded once per burst of lookups. */
  getOrLoad(hash: string, load: (hash: string) => Promise<CachedVirtualKey | null>): Promise<CachedVirtualKey | null> {
    return this.cache.getOrLoad(hash, load);
  }

  /** The key behind a value hash if it is in memory (`null`: known unknown), else undefined. */
  peek(hash: string): CachedVirtualKey | null | undefined {
    return this.cache.get(hash);
  }

  /** After a committed change: clear here and on the other replicas. */
  invalidate(): Promise<void> {
    return this.cache.invalidate();
  }
}
