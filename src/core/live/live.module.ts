import { Global, Inject, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { GatewayConfig } from '../config/gateway-config.js';
import { LOGGER } from '../logging/logging.module.js';
import { InvalidationBus } from '../redis/invalidation.bus.js';
import { REDIS } from '../redis/redis.module.js';
import { registerChangeEvents } from './change-events.hook.js';
import { LiveEvents } from './live-events.js';
import { LiveHub } from './live-hub.js';
import { LiveRelay, RedisLiveRelay } from './live-relay.js';
import { LiveController } from './live.controller.js';
import { dispatchUpgrades } from './upgrade-dispatch.js';

/**
 * The dashboard's live channel: `GET /ws`, its tickets, and the `LiveEvents` publisher every module may inject
 * (docs/live-channel.md). Events cross replicas through Redis pub/sub in scale-out.
 */
@Global()
@Module({
  controllers: [LiveController],
  providers: [
    {
      provide: LiveRelay,
      inject: [REDIS, InvalidationBus, GatewayConfig, LOGGER],
      useFactory: (redis: Redis | null, bus: InvalidationBus, config: GatewayConfig, logger: Logger): LiveRelay =>
        redis
          ? new RedisLiveRelay(redis, bus, config.redis_prefix, logger.child({ context: 'live-relay' }))
          : new LiveRelay(),
    },
    LiveEvents,
    LiveHub,
  ],
  exports: [LiveEvents],
})
export class LiveModule implements OnModuleInit, OnModuleDestroy {
  private stopDispatching: (() => void) | undefined;

  constructor(
    private readonly host: HttpAdapterHost,
    private readonly events: LiveEvents,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    registerChangeEvents(fastify, this.events);
    // A worker process serves no HTTP: nothing to upgrade.
    if (this.config.role !== 'worker') this.stopDispatching = dispatchUpgrades(fastify);
  }

  onModuleDestroy(): void {
    this.stopDispatching?.();
  }
}
