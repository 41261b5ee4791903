import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { REDIS } from '../../../core/redis/redis.module.js';

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
}

interface Entry {
  key: CachedVirtualKey | null;
  until: number;
}

/** Safety net should an invalidation message be lost; every change invalidates explicitly. */
const POSITIVE_TTL_MS = 60_000;
/** Unknown values are remembered briefly, so a flood of bad keys does not become a flood of queries. */
const NEGATIVE_TTL_MS = 5_000;
/** Bounded memory: past this many entries the cache starts over. */
const MAX_ENTRIES = 50_000;

/**
 * In-memory cache of virtual key lookups by value hash. Any change to any virtual key clears it, here and, through
 * Redis pub/sub, on every replica sharing the Redis prefix. Changes are rare; lookups happen on every request.
 */
@Injectable()
export class VirtualKeyCache implements OnModuleInit, OnApplicationShutdown {
  private readonly entries = new Map<string, Entry>();
  /** Bumped on every invalidation; a lookup that started before one must not store its (possibly stale) result. */
  private generation = 0;
  private subscriber: Redis | null = null;
  private readonly channel: string;
  private readonly logger: Logger;

  constructor(
    @Inject(REDIS) private readonly redis: Redis | null,
    config: GatewayConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.channel = `${config.redis_prefix}:governance:virtual-keys:invalidate`;
    this.logger = logger.child({ context: 'virtual-key-cache' });
  }

  async onModuleInit(): Promise<void> {
    if (!this.redis) return;
    // A connection in subscriber mode can run nothing else, so it is a duplicate of the shared one.
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string) => {
      if (channel === this.channel) this.clearLocal();
    });
    // Messages published while disconnected are lost: start over after every (re)connection.
    subscriber.on('ready', () => this.clearLocal());
    subscriber.on('error', (err: Error) => this.logger.warn({ err: err.message }, 'invalidation subscriber error'));
    if (subscriber.status === 'wait') await subscriber.connect();
    await subscriber.subscribe(this.channel);
  }

  async onApplicationShutdown(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = null;
    if (subscriber && subscriber.status !== 'end') await subscriber.quit().catch(() => subscriber.disconnect());
  }

  /** The cached lookup, or undefined when absent or stale. */
  get(hash: string): Entry | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.until <= Date.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry;
  }

  /** Marks the start of a database lookup; pass the result to `set`. */
  begin(): number {
    return this.generation;
  }

  set(hash: string, key: CachedVirtualKey | null, startedAt: number): void {
    if (startedAt !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, { key, until: Date.now() + (key ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS) });
  }

  /** After a committed change: clear here and tell the other replicas. */
  async invalidate(): Promise<void> {
    this.clearLocal();
    if (!this.redis) return;
    try {
      await this.redis.publish(this.channel, String(Date.now()));
    } catch (err) {
      // Other replicas catch up through the positive TTL.
      this.logger.warn({ err: (err as Error).message }, 'could not publish virtual key invalidation');
    }
  }

  private clearLocal(): void {
    this.generation++;
    this.entries.clear();
  }
}
