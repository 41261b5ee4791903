import type { Logger } from 'pino';

/** Called with the published message, or `undefined` when the handler must assume anything changed. */
export type InvalidationHandler = (message: string | undefined) => void;

/**
 * Tells every replica that something it may have cached has changed. Inject it by this class; the module picks the
 * Redis pub/sub bus when `redis_url` is set and the local one otherwise (the way the queue drivers are chosen).
 *
 * `publish` runs this replica's handlers synchronously, before its promise settles, and then tells the other replicas
 * sharing `redis_prefix`; each handler runs once per publish. A handler called with `undefined` must start over (a
 * reconnection may have lost messages).
 */
export abstract class InvalidationBus {
  private readonly topics = new Map<string, Set<{ handler: InvalidationHandler }>>();

  protected constructor(protected readonly logger: Logger) {}

  /** Returns the unsubscribe function. The same function subscribed twice runs twice. */
  subscribe(topic: string, handler: InvalidationHandler): () => void {
    const subscription = { handler };
    let subscriptions = this.topics.get(topic);
    if (!subscriptions) {
      subscriptions = new Set();
      this.topics.set(topic, subscriptions);
    }
    subscriptions.add(subscription);
    return () => {
      subscriptions.delete(subscription);
      if (subscriptions.size === 0 && this.topics.get(topic) === subscriptions) this.topics.delete(topic);
    };
  }

  /** Never throws: the caller has committed its change already, and caches have TTL safety nets. */
  abstract publish(topic: string, message?: string): Promise<void>;

  /** Runs this replica's handlers of one topic; one failing handler does not stop the others. */
  protected deliver(topic: string, message: string | undefined): void {
    const subscriptions = this.topics.get(topic);
    if (!subscriptions) return;
    for (const { handler } of [...subscriptions]) {
      try {
        handler(message);
      } catch (err) {
        this.logger.warn({ err: (err as Error).message, topic }, 'invalidation handler failed');
      }
    }
  }

  /** Every handler of every topic with `undefined`: messages may have been lost. */
  protected deliverToAll(): void {
    for (const topic of [...this.topics.keys()]) this.deliver(topic, undefined);
  }

  /** Forgets every handler (shutdown). */
  protected clearSubscriptions(): void {
    this.topics.clear();
  }
}

/** The embedded mode: one process, so local delivery is all there is. */
export class LocalInvalidationBus extends InvalidationBus {
  constructor(logger: Logger) {
    super(logger);
  }

  async publish(topic: string, message?: string): Promise<void> {
    this.deliver(topic, message);
  }
}
