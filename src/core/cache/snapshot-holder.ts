import type { Logger } from 'pino';
import type { CacheFactory } from './cache.factory.js';
import type { InvalidatedCache } from './invalidated-cache.js';
import type { InvalidationBus } from '../redis/invalidation.bus.js';

const KEY = 'snapshot';

/**
 * One immutable in-memory view of a table, for the request path, as the provider catalog keeps its own: built once per
 * change (a committed change calls `invalidate()`, which drops it here and, through the invalidation bus, on every
 * replica; the next request rebuilds it, once, however many wait), and rebuilt in the background after `ttlMs` without
 * a change (the safety net should a message be lost) while requests keep the previous one.
 */
export class SnapshotHolder<T> {
  private readonly cache: InvalidatedCache<T>;
  private previous: T | undefined;
  private changes = 0;
  private refreshing: Promise<T | null> | undefined;
  /** Set on shutdown: a first build cut short by it is not worth a warning. */
  private closing = false;

  constructor(
    topic: string,
    private readonly build: () => Promise<T>,
    private readonly logger: Logger,
    caches: CacheFactory,
    bus: InvalidationBus,
    ttlMs = 60_000,
  ) {
    this.cache = caches.create<T>({ topic, ttlMs, negativeTtlMs: 0, maxEntries: 1 });
    bus.subscribe(topic, () => {
      this.changes++;
      this.previous = undefined;
    });
  }

  /** The current view: synchronous when built (or merely expired), else the shared rebuild after a change. */
  get(): T | Promise<T> {
    const built = this.cache.get(KEY);
    if (built) return built;
    const rebuild = this.cache.getOrLoad(KEY, () => this.load()) as Promise<T>;
    if (this.previous === undefined) return rebuild;
    if (this.refreshing !== rebuild) {
      this.refreshing = rebuild;
      rebuild.catch((err: unknown) => this.logger.warn({ err: (err as Error).message }, 'snapshot refresh failed'));
    }
    return this.previous;
  }

  /** After a committed change: here (synchronously) and on every other replica. */
  invalidate(): Promise<void> {
    return this.cache.invalidate();
  }

  /** Builds the first view before traffic arrives. */
  warm(): void {
    void Promise.resolve(this.get()).catch((err: unknown) => {
      if (!this.closing) this.logger.warn({ err: (err as Error).message }, 'snapshot could not be built at start');
    });
  }

  /** The application is shutting down. */
  close(): void {
    this.closing = true;
  }

  private async load(): Promise<T> {
    const changes = this.changes;
    const value = await this.build();
    if (changes === this.changes) this.previous = value;
    return value;
  }
}
