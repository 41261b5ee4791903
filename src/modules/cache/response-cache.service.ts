import { Injectable } from '@nestjs/common';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import { CACHE_KEY_PATTERN } from './cache-key.js';
import type { CacheClearResponseDto, CacheStatsDto } from './dto/cache-stats.dto.js';
import { SemanticIndex } from './semantic/semantic-index.js';
import { ResponseCacheStore } from './store/response-cache.store.js';

/** The cache's management side: entries removed by key or by the request that wrote them, and the statistics. */
@Injectable()
export class ResponseCacheService {
  constructor(
    private readonly store: ResponseCacheStore,
    private readonly semanticIndex: SemanticIndex,
  ) {}

  async clearByRequest(requestId: string): Promise<CacheClearResponseDto> {
    const key = await this.store.keyOfRequest(requestId);
    if (key === undefined) {
      throw GatewayException.notFound('cache_entry', `No cache entry was written by request ${requestId}`);
    }
    return this.clearByKey(key);
  }

  async clearByKey(key: string): Promise<CacheClearResponseDto> {
    const removed = CACHE_KEY_PATTERN.test(key) && (await this.store.delete(key));
    if (!removed) throw GatewayException.notFound('cache_entry', `No cache entry has the key ${key}`);
    await this.semanticIndex.delete(key);
    return { message: 'Cache entry removed', cache_key: key };
  }

  async stats(): Promise<CacheStatsDto> {
    const { entries, bytes, hits, misses } = await this.store.stats();
    const lookups = hits + misses;
    return {
      store: this.store.kind,
      entries,
      bytes,
      hits,
      misses,
      hit_rate: lookups === 0 ? 0 : hits / lookups,
      semantic_entries: await this.semanticIndex.count(),
    };
  }
}
