import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource, LessThan, type Repository } from 'typeorm';
import { parseDuration } from '../../../core/config/duration.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { type JobPayloads } from '../../../core/queue/job-catalogue.js';
import { WEBHOOK_JOBS, WEBHOOK_JOB_SETTINGS } from '../webhooks.jobs.js';
import { JobHandler, type JobContext } from '../../../core/queue/job-handler.decorator.js';
import { JobRecoveryRegistry } from '../../../core/queue/job-recovery.registry.js';
import { QueueService } from '../../../core/queue/queue.service.js';
import {
  WebhookDeliveryEntity,
  type DeliveryAttempt,
  type DeliveryStatus,
} from '../entities/webhook-delivery.entity.js';
import { WebhookEntity } from '../entities/webhook.entity.js';
import { WebhookSender } from './webhook-sender.js';

/** The wait between attempts doubles from `webhooks.retry_backoff_initial` up to this. */
export const MAX_RETRY_BACKOFF_MS = 60 * 60 * 1000;
/** A claimed attempt holds its delivery this long past the attempt's own deadline (a crash releases it after this). */
const CLAIM_MARGIN_MS = 30_000;
/** A job that runs this much before its delivery's next attempt is due is a duplicate: the due one will run. */
const EARLY_TOLERANCE_MS = 1_000;

export type AttemptOutcome =
  | { delivery_id: string; attempt: number; status: DeliveryStatus; status_code?: number }
  | { delivery_id: string; skipped: string };

/**
 * Runs delivery attempts: the `webhooks.deliver` job (one attempt per run; a failed attempt schedules the next as a
 * delayed job with its own id, so the number and spacing of attempts follow the config rather than the queue's
 * table) and the single attempt of a test. Each attempt is claimed on the row first (compare-and-set of
 * `attempt_count`), so a duplicate job never sends a delivery twice at once; the queue's own retries only cover a
 * failure to read or write the row.
 */
@Injectable()
export class WebhookDeliveryRunner {
  readonly maxAttempts: number;
  private readonly backoffInitialMs: number;

  constructor(
    @InjectRepository(WebhookDeliveryEntity) private readonly deliveries: Repository<WebhookDeliveryEntity>,
    @InjectRepository(WebhookEntity) private readonly webhooks: Repository<WebhookEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sender: WebhookSender,
    private readonly queue: QueueService,
    @Inject(LOGGER) private readonly logger: Logger,
    config: GatewayConfig,
    recovery: JobRecoveryRegistry,
  ) {
    this.maxAttempts = config.webhooks.max_attempts;
    this.backoffInitialMs = parseDuration(config.webhooks.retry_backoff_initial) ?? 1_000;
    recovery.register({
      job: WEBHOOK_JOBS.deliver,
      findOrphans: (olderThanMs, limit) => this.overdue(olderThanMs, limit),
    });
  }

  /** Queues the first attempt. A failure to enqueue loses nothing: the row is pending and the recovery sweep finds it. */
  async enqueue(deliveryId: string): Promise<void> {
    try {
      await this.queue.enqueue(WEBHOOK_JOBS.deliver, { delivery_id: deliveryId });
    } catch (err) {
      this.logger.warn({ err, delivery_id: deliveryId }, 'webhook delivery not enqueued; the recovery sweep will');
    }
  }

  @JobHandler(WEBHOOK_JOBS.deliver)
  async deliver(payload: JobPayloads['webhooks.deliver'], context: JobContext): Promise<AttemptOutcome> {
    const id = payload.delivery_id;
    const row = await this.deliveries.findOneBy({ id });
    if (!row) return { delivery_id: id, skipped: 'delivery gone' };
    if (row.status !== 'pending') return { delivery_id: id, skipped: `delivery ${row.status}` };
    if (row.next_attempt_at && row.next_attempt_at.getTime() > Date.now() + EARLY_TOLERANCE_MS) {
      return { delivery_id: id, skipped: 'not due' };
    }
    const webhook = await this.webhooks.findOneBy({ id: row.webhook_id });
    if (!webhook) return { delivery_id: id, skipped: 'webhook gone' };
    return this.attempt(webhook, row, this.maxAttempts, context.signal);
  }

  /**
   * Claims, sends and records the next attempt of `row`; schedules the one after when it failed and attempts remain
   * (of `maxAttempts`). A disabled webhook's delivery fails at once without being sent.
   */
  async attempt(
    webhook: WebhookEntity,
    row: WebhookDeliveryEntity,
    maxAttempts: number,
    signal?: AbortSignal,
  ): Promise<AttemptOutcome> {
    const attempt = await this.claim(row);
    if (attempt === undefined) return { delivery_id: row.id, skipped: 'attempt claimed by another run' };
    const { ok, ...record } = webhook.enabled
      ? await this.sender.send(webhook, row, attempt, signal)
      : disabledAttempt(attempt);
    const retry = !ok && webhook.enabled && attempt < maxAttempts;
    const status: DeliveryStatus = ok ? 'succeeded' : retry ? 'pending' : 'failed';
    const delayMs = Math.min(this.backoffInitialMs * 2 ** (attempt - 1), MAX_RETRY_BACKOFF_MS);
    const nextAttemptAt = retry ? new Date(Date.now() + delayMs) : null;
    await this.record(row.id, attempt, record, status, nextAttemptAt);
    if (!ok) {
      this.logger.info(
        { delivery_id: row.id, webhook: webhook.name, attempt, status_code: record.status_code, error: record.error },
        retry ? 'webhook delivery attempt failed; retrying' : 'webhook delivery failed',
      );
    }
    if (retry) {
      try {
        await this.queue.enqueue(
          WEBHOOK_JOBS.deliver,
          { delivery_id: row.id },
          { jobId: attemptJobId(row.id, attempt + 1), delayMs },
        );
      } catch (err) {
        this.logger.warn({ err, delivery_id: row.id }, 'webhook retry not enqueued; the recovery sweep will');
      }
    }
    return { delivery_id: row.id, attempt, status, ...(record.status_code ? { status_code: record.status_code } : {}) };
  }

  /** Pending deliveries whose next attempt was due more than `olderThanMs` ago: their job was lost. */
  private async overdue(olderThanMs: number, limit: number): Promise<Array<JobPayloads['webhooks.deliver']>> {
    const rows = await this.deliveries.find({
      select: { id: true },
      where: { status: 'pending', next_attempt_at: LessThan(new Date(Date.now() - olderThanMs)) },
      order: { next_attempt_at: 'ASC' },
      take: limit,
    });
    return rows.map((r) => ({ delivery_id: r.id }));
  }

  /**
   * Takes the next attempt number if nobody took it since `row` was read, and holds the delivery until the attempt's
   * deadline has passed (a job for it meanwhile finds it not due). Undefined when another run was first.
   */
  private async claim(row: WebhookDeliveryEntity): Promise<number | undefined> {
    const attempt = row.attempt_count + 1;
    const heldUntil = new Date(Date.now() + this.sender.attemptTimeoutMs + CLAIM_MARGIN_MS);
    const claimed: unknown[] = await this.dataSource.query(
      `UPDATE webhook_deliveries SET attempt_count = $1, next_attempt_at = $2
        WHERE id = $3 AND status = 'pending' AND attempt_count = $4 RETURNING id`,
      [attempt, heldUntil, row.id, row.attempt_count],
    );
    return rowsOf(claimed).length === 1 ? attempt : undefined;
  }

  private async record(
    id: string,
    attempt: number,
    record: DeliveryAttempt,
    status: DeliveryStatus,
    nextAttemptAt: Date | null,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_deliveries
          SET attempts = attempts || $1::jsonb, status = $2, next_attempt_at = $3, delivered_at = $4
        WHERE id = $5 AND attempt_count = $6`,
      [JSON.stringify([record]), status, nextAttemptAt, status === 'succeeded' ? new Date() : null, id, attempt],
    );
  }
}

/** The queue job id of a delivery's attempt: the first is the catalogue's key, later ones are numbered. */
function attemptJobId(deliveryId: string, attempt: number): string {
  const first = WEBHOOK_JOB_SETTINGS['webhooks.deliver'].idempotencyKey!({ delivery_id: deliveryId });
  return attempt === 1 ? first : `${first}-${attempt}`;
}

function disabledAttempt(attempt: number): DeliveryAttempt & { ok: boolean } {
  return { attempt, at: new Date().toISOString(), error: 'webhook is disabled', duration_ms: 0, ok: false };
}

/** `RETURNING` rows: node-postgres answers them for an UPDATE as `[rows, count]`, PGlite as the rows. */
function rowsOf(result: unknown[]): unknown[] {
  return Array.isArray(result[0]) ? result[0] : result;
}
