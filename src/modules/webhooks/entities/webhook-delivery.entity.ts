import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WebhookEntity } from './webhook.entity.js';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One try at sending a delivery, as recorded on its row. */
export interface DeliveryAttempt {
  /** 1 for the first. */
  attempt: number;
  /** RFC 3339 time the request started. */
  at: string;
  /** The receiver's HTTP status; absent when no answer came (network error, timeout, refused address). */
  status_code?: number;
  /** Why the attempt failed; absent on success. */
  error?: string;
  duration_ms: number;
  /** The first KiB of the receiver's answer, as text. */
  response_excerpt?: string;
}

/**
 * One event for one webhook. The row is the state of its delivery: the `webhooks.deliver` job carries only the id,
 * claims the next attempt on the row (`attempt_count`, with `next_attempt_at` pushed past the attempt's deadline so no
 * second job sends it meanwhile), records the outcome and schedules the next attempt. A `pending` row whose
 * `next_attempt_at` passed long ago lost its job and is re-enqueued by the job recovery sweep.
 */
@Entity({ name: 'webhook_deliveries' })
@Index('idx_webhook_deliveries_webhook_created', ['webhook_id', 'created_at'])
@Index('idx_webhook_deliveries_pending', ['next_attempt_at'], { where: `"status" = 'pending'` })
export class WebhookDeliveryEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_webhook_deliveries' })
  id: string;

  @Column({ name: 'webhook_id', type: 'uuid' })
  webhook_id: string;

  @ManyToOne(() => WebhookEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'webhook_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'fk_webhook_deliveries_webhook',
  })
  webhook?: WebhookEntity;

  @Column({ type: 'varchar', length: 128 })
  event: string;

  /** The envelope's `data`. */
  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: DeliveryStatus;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  attempts: DeliveryAttempt[];

  /** Attempts claimed so far (an attempt cut short by a crash is claimed but has no record). */
  @Column({ name: 'attempt_count', type: 'integer', default: 0 })
  attempt_count: number;

  /** When the next attempt is due (pending only); null once finished. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  next_attempt_at: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  delivered_at: Date | null;

  /** The delivery this one repeats (`POST /api/webhooks/deliveries/{id}/redeliver`). */
  @Column({ name: 'redelivery_of', type: 'uuid', nullable: true })
  redelivery_of: string | null;
}
