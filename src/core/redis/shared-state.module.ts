import { Global, Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { CacheFactory } from '../cache/cache.factory.js';
import { Clock } from '../clock/clock.js';
import { GatewayConfig } from '../config/gateway-config.js';
import { LOGGER } from '../logging/logging.module.js';
import { LeasedCounterStore } from './counter-leases.js';
import { CounterStore } from './counter.store.js';
import { InvalidationBus, LocalInvalidationBus } from './invalidation.bus.js';
import { MemoryCounterStore } from './memory-counter.store.js';
import { RedisCounterStore } from './redis-counter.store.js';
import { RedisInvalidationBus } from './redis-invalidation.bus.js';
import { REDIS } from './redis.module.js';

/**
 * State every replica must agree on: the invalidation bus, the caches built on it, and the counters. Each is backed
 * by Redis when `redis_url` is set and by this process's memory otherwise; callers inject `InvalidationBus`,
 * `CacheFactory` and `CounterStore` and never see which.
 */
@Global()
@Module({
  providers: [
    {
      provide: InvalidationBus,
      inject: [REDIS, GatewayConfig, LOGGER],
      useFactory: async (redis: Redis | null, config: GatewayConfig, logger: Logger): Promise<InvalidationBus> => {
        const busLogger = logger.child({ context: 'invalidation-bus' });
        if (!redis) return new LocalInvalidationBus(busLogger);
        const bus = new RedisInvalidationBus(redis, config.redis_prefix, busLogger);
        await bus.start();
        return bus;
      },
    },
    {
      provide: CounterStore,
      inject: [REDIS, GatewayConfig, Clock, LOGGER],
      useFactory: (redis: Redis | null, config: GatewayConfig, clock: Clock, logger: Logger): CounterStore => {
        if (!redis) return new MemoryCounterStore(clock);
        const store = new RedisCounterStore(redis, config.redis_prefix, undefined, clock);
        if (!config.governance.counter_leases) return store;
        const leaseLogger = logger.child({ context: 'counter-leases' });
        return new LeasedCounterStore(store, clock, (err, what) =>
          leaseLogger.warn({ err }, `counter ${what} failed; its reservation lapses on its own`),
        );
      },
    },
    CacheFactory,
  ],
  exports: [InvalidationBus, CounterStore, CacheFactory],
})
export class SharedStateModule {}
