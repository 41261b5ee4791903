import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, type QueryDeepPartialEntity, type Repository } from 'typeorm';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import { isForeignKeyViolation } from '../../core/persistence/db-errors.js';
import { isId } from '../../core/validation/ids.js';
import { WebhookDeliveryRunner } from './delivery/webhook-delivery.runner.js';
import {
  MAX_EVENT_LENGTH,
  type WebhookDeliveryListDto,
  type WebhookDeliveryQueryDto,
  type WebhookDeliveryViewDto,
} from './dto/webhook-delivery.dto.js';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity.js';
import type { WebhookEntity } from './entities/webhook.entity.js';
import { WebhooksService } from './webhooks.service.js';

export const TEST_EVENT = 'webhook.test';

/** What a new delivery carries. */
interface NewDelivery {
  event: string;
  payload: Record<string, unknown>;
  redeliveryOf?: string;
}

/** Deliveries of webhooks: recording new ones (events, tests, redeliveries), reading them back. */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    @InjectRepository(WebhookDeliveryEntity) private readonly deliveries: Repository<WebhookDeliveryEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly runner: WebhookDeliveryRunner,
    private readonly webhooks: WebhooksService,
  ) {}

  /** Records `event` for the webhook if it exists and is enabled, and queues it; undefined otherwise. */
  async notify(webhookId: string, event: string, data: Record<string, unknown>): Promise<string | undefined> {
    if (event.length === 0 || event.length > MAX_EVENT_LENGTH) {
      throw new Error(`webhook event name must be 1 to ${MAX_EVENT_LENGTH} characters`);
    }
    const row = isId(webhookId) ? await this.insertIfEnabled(webhookId, { event, payload: data }) : undefined;
    if (row) await this.runner.enqueue(row.id);
    return row?.id;
  }

  /** Sends a `webhook.test` event now, once (no retries), whether or not the webhook is enabled. */
  async test(webhook: WebhookEntity): Promise<WebhookDeliveryEntity> {
    const payload = { webhook_id: webhook.id, webhook_name: webhook.name, message: 'Test event from the AI gateway' };
    const row = await this.insert(webhook.id, { event: TEST_EVENT, payload });
    await this.runner.attempt({ ...webhook, enabled: true }, row, 1);
    return this.get(row.id);
  }

  /** A new delivery of the same event and payload, queued; 409 when the webhook is disabled. */
  async redeliver(id: string): Promise<WebhookDeliveryEntity> {
    const original = await this.get(id);
    const webhook = await this.webhooks.get(original.webhook_id);
    if (!webhook.enabled) {
      throw new GatewayException(
        409,
        'webhook_disabled',
        `Webhook ${webhook.name} is disabled: enable it to redeliver`,
      );
    }
    const row = await this.insert(webhook.id, {
      event: original.event,
      payload: original.payload,
      redeliveryOf: original.id,
    });
    await this.runner.enqueue(row.id);
    return row;
  }

  async get(id: string): Promise<WebhookDeliveryEntity> {
    const row = isId(id) ? await this.deliveries.findOneBy({ id }) : null;
    if (!row) throw GatewayException.notFound('webhook_delivery', `Webhook delivery ${id} does not exist`);
    return row;
  }

  async list(webhookId: string, query: WebhookDeliveryQueryDto): Promise<WebhookDeliveryListDto> {
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const qb = this.deliveries.createQueryBuilder('d').where('d.webhook_id = :webhookId', { webhookId });
    if (query.status) qb.andWhere('d.status = :status', { status: query.status });
    if (query.event) qb.andWhere('d.event = :event', { event: query.event });
    const [rows, total_count] = await qb
      .orderBy('d.created_at', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .take(limit)
      .skip(offset)
      .getManyAndCount();
    const deliveries = rows.map((r) => WebhookDeliveriesService.view(r));
    return {
      deliveries,
      count: deliveries.length,
      pagination: { total_count, limit, offset, sort_by: 'created_at', order: 'desc' },
    };
  }

  static view(row: WebhookDeliveryEntity): WebhookDeliveryViewDto {
    return {
      id: row.id,
      webhook_id: row.webhook_id,
      event: row.event,
      payload: row.payload,
      status: row.status,
      attempts: row.attempts,
      attempt_count: row.attempt_count,
      next_attempt_at: row.status === 'pending' ? (row.next_attempt_at?.toISOString() ?? null) : null,
      created_at: row.created_at.toISOString(),
      delivered_at: row.delivered_at?.toISOString() ?? null,
      redelivery_of: row.redelivery_of,
    };
  }

  private async insert(webhookId: string, delivery: NewDelivery): Promise<WebhookDeliveryEntity> {
    const row = this.newRow(webhookId, delivery);
    // jsonb columns typed as open records are beyond TypeORM's deep-partial type; the row is complete.
    await this.deliveries.insert(row as QueryDeepPartialEntity<WebhookDeliveryEntity>);
    return row;
  }

  /** One statement: the webhook is read and the delivery written together, so a delete or disable cannot slip between. */
  private async insertIfEnabled(webhookId: string, delivery: NewDelivery): Promise<WebhookDeliveryEntity | undefined> {
    const row = this.newRow(webhookId, delivery);
    try {
      const inserted: unknown[] = await this.dataSource.query(
        `INSERT INTO webhook_deliveries (id, webhook_id, event, payload, status, attempts, attempt_count, next_attempt_at, created_at)
         SELECT $1, w.id, $2, $3::jsonb, 'pending', '[]'::jsonb, 0, $4, $4 FROM webhooks w WHERE w.id = $5 AND w.enabled
         RETURNING id`,
        [row.id, row.event, JSON.stringify(row.payload), row.created_at, webhookId],
      );
      return inserted.length === 1 ? row : undefined;
    } catch (err) {
      if (isForeignKeyViolation(err)) return undefined;
      throw err;
    }
  }

  private newRow(webhookId: string, delivery: NewDelivery): WebhookDeliveryEntity {
    const now = new Date();
    return this.deliveries.create({
      id: randomUUID(),
      webhook_id: webhookId,
      event: delivery.event,
      payload: delivery.payload,
      status: 'pending',
      attempts: [],
      attempt_count: 0,
      next_attempt_at: now,
      created_at: now,
      delivered_at: null,
      redelivery_of: delivery.redeliveryOf ?? null,
    });
  }
}
