import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { GatewayConfig } from '../config/gateway-config.js';
import { LOGGER } from '../logging/logging.module.js';
import { closeRedis } from './close-redis.js';

/** Injection token of the shared Redis client, or `null` in the embedded mode. */
export const REDIS = Symbol('REDIS');

class RedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis | null) {}
  async onApplicationShutdown(): Promise<void> {
    await closeRedis(this.redis);
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
          inject: [GatewayConfig, LOGGER],
          useFactory: async (config: GatewayConfig, logger: Logger) => {
            if (!config.redis_url) return null;
            const redis = new Redis(config.redis_url, { lazyConnect: true, maxRetriesPerRequest: 2 });
            // Without a listener ioredis prints every failed reconnect to stderr; one warning per outage instead.
            let down = false;
            redis.on('error', (err: Error) => {
              if (down) return;
              down = true;
              logger.warn({ context: 'redis', err: err.message }, 'redis connection lost: reconnecting');
            });
            redis.on('ready', () => {
              down = false;
            });
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
