import { randomUUID } from 'node:crypto';
import type { OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { InvalidationBus } from '../redis/invalidation.bus.js';
import type { LiveEnvelope } from './live-event.js';
import { closeRedis } from '../redis/close-redis.js';

/**
 * Carries live events between replicas. The embedded mode has one process, so the local relay carries nothing and
 * nobody listens elsewhere.
 */
export class LiveRelay {
  /** Whether a subscriber may be listening on another replica (false: publishing sends nothing). */
  get remoteListeners(): boolean {
    return false;
  }

  onReceive(_handler: (envelope: LiveEnvelope) => void): void {}

  send(_envelope: LiveEnvelope): void {}

  /** This replica has subscribers: receive the others' events from now on. */
  join(): Promise<void> {
    return Promise.resolve();
  }

  /** This replica's last subscriber left. */
  leave(): Promise<void> {
    return Promise.resolve();
  }
}

/** Invalidation-bus topic on which a replica announces that it has subscribers now. */
const LISTENERS_TOPIC = 'live.listeners';
/** After this long without listeners, the next event is published anyway (heals a lost announcement). */
const REPROBE_MS = 5_000;
/** PUBLISHes waiting for Redis at once; past it batches are dropped rather than queued without bound. */
const MAX_IN_FLIGHT = 32;

interface Batch {
  origin: string;
  events: LiveEnvelope[];
}

/**
 * The relay over Redis pub/sub, channel `<redis_prefix>:live`, subscribed only by replicas that have subscribers
 * (log rows are frequent: a replica without dashboards should not read every other replica's). Events published in
 * one tick go out as one PUBLISH. PUBLISH answers how many connections received the message: when none but this
 * replica's own did, nobody listens elsewhere and publishing stops until a replica announces new subscribers on the
 * invalidation bus.
 */
export class RedisLiveRelay extends LiveRelay implements OnApplicationShutdown {
  private readonly origin = randomUUID();
  private readonly channel: string;
  private subscriber: Redis | null = null;
  private joined: Promise<void> | null = null;
  private subscribed = false;
  /** Unknown at start: assume someone listens until a PUBLISH says otherwise. */
  private others = true;
  private quietSince = 0;
  /** Counts announcements, so an older PUBLISH's answer cannot undo a newer announcement. */
  private announcements = 0;
  private pending: LiveEnvelope[] = [];
  private flushScheduled = false;
  private inFlight = 0;
  private handler: (envelope: LiveEnvelope) => void = () => undefined;
  private readonly unsubscribeBus: () => void;

  constructor(
    private readonly redis: Redis,
    private readonly bus: InvalidationBus,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {
    super();
    this.channel = `${prefix}:live`;
    // Any message (or a reconnection, `undefined`): someone may listen now.
    this.unsubscribeBus = bus.subscribe(LISTENERS_TOPIC, () => {
      this.announcements++;
      this.others = true;
    });
  }

  override get remoteListeners(): boolean {
    return this.others || Date.now() - this.quietSince > REPROBE_MS;
  }

  override onReceive(handler: (envelope: LiveEnvelope) => void): void {
    this.handler = handler;
  }

  override send(envelope: LiveEnvelope): void {
    if (!this.remoteListeners) return;
    this.pending.push(envelope);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => void this.flush());
  }

  override join(): Promise<void> {
    this.joined ??= this.subscribe().catch((err: unknown) => {
      this.joined = null;
      throw err;
    });
    return this.joined;
  }

  override async leave(): Promise<void> {
    const joined = this.joined;
    this.joined = null;
    if (!joined) return;
    await joined.catch(() => undefined);
    // A subscriber that arrived meanwhile joined again: stay subscribed.
    if (this.joined || !this.subscriber) return;
    this.subscribed = false;
    await this.subscriber.unsubscribe(this.channel).catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    this.unsubscribeBus();
    const subscriber = this.subscriber;
    this.subscriber = null;
    await closeRedis(subscriber);
  }

  private async subscribe(): Promise<void> {
    if (!this.subscriber) {
      const subscriber = this.redis.duplicate({
        lazyConnect: true,
        connectionName: `${this.prefix.replace(/[^\w:.-]/g, '_')}:live-relay`,
      });
      subscriber.on('message', (channel: string, raw: string) => {
        if (channel === this.channel) this.receive(raw);
      });
      subscriber.on('error', (err: Error) => this.logger.warn({ err: err.message }, 'live relay subscriber error'));
      this.subscriber = subscriber;
      await subscriber.connect();
    }
    await this.subscriber.subscribe(this.channel);
    this.subscribed = true;
    await this.bus.publish(LISTENERS_TOPIC, this.origin);
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const events = this.pending;
    this.pending = [];
    if (events.length === 0) return;
    if (this.inFlight >= MAX_IN_FLIGHT) {
      this.logger.warn({ events: events.length }, 'live events dropped: Redis is not keeping up');
      return;
    }
    const announcements = this.announcements;
    const selfSubscribed = this.subscribed;
    this.inFlight++;
    try {
      const batch: Batch = { origin: this.origin, events };
      const receivers = await this.redis.publish(this.channel, JSON.stringify(batch));
      if (receivers - (selfSubscribed ? 1 : 0) > 0) this.others = true;
      else if (announcements === this.announcements) {
        this.others = false;
        this.quietSince = Date.now();
      }
    } catch (err) {
      // Live events are best effort: a dashboard refetches on reconnect.
      this.logger.warn({ err: (err as Error).message, events: events.length }, 'could not relay live events');
    } finally {
      this.inFlight--;
    }
  }

  private receive(raw: string): void {
    let batch: Partial<Batch>;
    try {
      batch = JSON.parse(raw) as Partial<Batch>;
    } catch {
      return;
    }
    if (batch.origin === this.origin || !Array.isArray(batch.events)) return;
    for (const envelope of batch.events) {
      try {
        this.handler(envelope);
      } catch (err) {
        this.logger.warn({ err: (err as Error).message }, 'live event delivery failed');
      }
    }
  }
}
