import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { CacheFactory } from '../../core/cache/cache.factory.js';
import { SnapshotHolder } from '../../core/cache/snapshot-holder.js';
import { LOGGER } from '../../core/logging/logging.module.js';
import { InvalidationBus } from '../../core/redis/invalidation.bus.js';
import { WebhookEntity } from './entities/webhook.entity.js';

export const WEBHOOKS_TOPIC = 'webhooks';

export interface WebhookListing {
  id: string;
  name: string;
  enabled: boolean;
}

/** Every webhook's name and state, by name and by id. */
export class WebhookSet {
  readonly byName: ReadonlyMap<string, WebhookListing>;
  readonly byId: ReadonlyMap<string, WebhookListing>;

  constructor(rows: readonly WebhookListing[]) {
    this.byName = new Map(rows.map((r) => [r.name, r]));
    this.byId = new Map(rows.map((r) => [r.id, r]));
  }
}

/**
 * Which webhooks exist and are enabled, for the async submit path (`x-gateway-async-webhook`): a snapshot rebuilt after
 * every committed change, on every replica (invalidation bus), so naming a webhook reads no database.
 */
@Injectable()
export class WebhookDirectory implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly holder: SnapshotHolder<WebhookSet>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(LOGGER) logger: Logger,
    caches: CacheFactory,
    bus: InvalidationBus,
  ) {
    this.holder = new SnapshotHolder(WEBHOOKS_TOPIC, () => this.build(), logger, caches, bus);
  }

  onApplicationBootstrap(): void {
    this.holder.warm();
  }

  onModuleDestroy(): void {
    this.holder.close();
  }

  snapshot(): WebhookSet | Promise<WebhookSet> {
    return this.holder.get();
  }

  /** After a committed create, update or delete. */
  changed(): Promise<void> {
    return this.holder.invalidate();
  }

  private async build(): Promise<WebhookSet> {
    const rows = await this.dataSource
      .getRepository(WebhookEntity)
      .find({ select: { id: true, name: true, enabled: true } });
    return new WebhookSet(rows.map(({ id, name, enabled }) => ({ id, name, enabled })));
  }
}
