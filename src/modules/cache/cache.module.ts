import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Clock } from '../../core/clock/clock.js';
import { GatewayConfig } from '../../core/config/gateway-config.js';
import { LOGGER } from '../../core/logging/logging.module.js';
import { PluginRegistry } from '../plugins/index.js';
import { REDIS } from '../../core/redis/redis.module.js';
import { CacheController } from './cache.controller.js';
import { ResponseCachePlugin } from './response-cache.plugin.js';
import { ResponseCacheService } from './response-cache.service.js';
import { Embedder } from './semantic/embedder.js';
import { SemanticIndex } from './semantic/semantic-index.js';
import { MemoryResponseCacheStore } from './store/memory-response-cache.store.js';
import { RedisResponseCacheStore } from './store/redis-response-cache.store.js';
import { ResponseCacheStore } from './store/response-cache.store.js';

/**
 * The response cache (docs/cache.md): the `cache` plugin, its store (Redis in scale-out, an in-process LRU in the
 * embedded mode), the semantic index in pgvector, and the `/api/cache` routes.
 */
@Module({
  controllers: [CacheController],
  providers: [
    {
      provide: ResponseCacheStore,
      inject: [REDIS, GatewayConfig, Clock, LOGGER],
      useFactory: (redis: Redis | null, config: GatewayConfig, clock: Clock, logger: Logger): ResponseCacheStore =>
        redis
          ? new RedisResponseCacheStore(redis, config.redis_prefix, logger.child({ context: 'response-cache' }))
          : new MemoryResponseCacheStore(clock),
    },
    SemanticIndex,
    Embedder,
    ResponseCachePlugin,
    ResponseCacheService,
  ],
})
export class CacheModule implements OnModuleInit {
  constructor(
    private readonly registry: PluginRegistry,
    @Inject(ResponseCachePlugin) private readonly plugin: ResponseCachePlugin,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.plugin);
  }
}
