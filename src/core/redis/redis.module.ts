import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { GatewayConfig } from '../config/gateway-config.js';

/** Injection token of the shared Redis client, or `null` in the embedded mode. */
export const REDIS = Symbol('REDIS');

class RedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis | null) {}
  async onApplicationShutdown(): Promise<void> {
    if (this.redis && this.redis.status !== 'end') await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}

/** One Redis connection for commands (health, counters, circuits, cache invalidation) when `redis_url` is set. */
@Global()
@Module({})
export class RedisModule {
  static forRoot(): DynamicModule {
    return {
      module: RedisModule,
      providers: [
        {
          provide: REDIS,
          inject: [GatewayConfig],
          useFactory: async (config: GatewayConfig) => {
            if (!config.redis_url) return null;
            const redis = new Redis(config.redis_url, { lazyConnect: true, maxRetriesPerRequest: 2 });
            await redis.connect();
            return redis;
          },
        },
        RedisLifecycle,
      ],
      exports: [REDIS],
    };
  }
}
