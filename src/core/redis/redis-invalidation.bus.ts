import { randomUUID } from 'node:crypto';
import type { OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { InvalidationBus } from './invalidation.bus.js';
import { closeRedis } from './close-redis.js';

/** What travels on the channel: the topic, the message, and who sent it (so the sender skips its own). */
interface Envelope {
  origin: string;
  topic: string;
  message?: string;
}

/**
 * The bus over Redis pub/sub: one channel `<redis_prefix>:invalidate` for every topic (invalidations are rare, so
 * every replica may read them all), read by one duplicate connection per replica (a subscribed connection can run
 * nothing else). Publishing uses the shared command connection.
 */
export class RedisInvalidationBus extends InvalidationBus implements OnApplicationShutdown {
  /** Identifies this replica's messages, which it has delivered locally already. */
  private readonly origin = randomUUID();
  private readonly channel: string;
  private subscriber: Redis | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    logger: Logger,
  ) {
    super(logger);
    this.channel = `${prefix}:invalidate`;
  }

  /** Resolves once the channel is subscribed (the app must not serve from caches that cannot hear changes). */
  async start(): Promise<void> {
    const subscriber = this.redis.duplicate({
      lazyConnect: true,
      // Subscribed again by hand on every `ready`, so handlers start over only once the subscription is confirmed:
      // with ioredis' automatic resubscription a change published in between would be missed.
      autoResubscribe: false,
      // Named so operators (and tests) can find it in CLIENT LIST; names may not contain spaces.
      connectionName: `${this.prefix.replace(/[^\w:.-]/g, '_')}:invalidation-bus`,
    });
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, raw: string) => {
      if (channel === this.channel) this.receive(raw);
    });
    subscriber.on('error', (err: Error) => this.logger.warn({ err: err.message }, 'invalidation subscriber error'));
    const firstSubscription = new Promise<void>((resolve, reject) => {
      subscriber.on('ready', () => {
        subscriber.subscribe(this.channel).then(
          () => {
            // Messages published while disconnected are lost: every cache starts over.
            this.deliverToAll();
            resolve();
          },
          (err: Error) => {
            this.logger.warn({ err: err.message }, 'could not subscribe to invalidations');
            reject(err);
          },
        );
      });
    });
    await subscriber.connect();
    await firstSubscription;
  }

  async publish(topic: string, message?: string): Promise<void> {
    this.deliver(topic, message);
    const envelope: Envelope = { origin: this.origin, topic, message };
    try {
      await this.redis.publish(this.channel, JSON.stringify(envelope));
    } catch (err) {
      // Other replicas catch up through their caches' TTLs.
      this.logger.warn({ err: (err as Error).message, topic }, 'could not publish an invalidation');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.clearSubscriptions();
    const subscriber = this.subscriber;
    this.subscriber = null;
    await closeRedis(subscriber);
  }

  private receive(raw: string): void {
    let envelope: Partial<Envelope>;
    try {
      envelope = JSON.parse(raw) as Partial<Envelope>;
    } catch {
      this.logger.warn('ignored a malformed invalidation message');
      return;
    }
    if (envelope.origin === this.origin || typeof envelope.topic !== 'string') return;
    this.deliver(envelope.topic, typeof envelope.message === 'string' ? envelope.message : undefined);
  }
}
