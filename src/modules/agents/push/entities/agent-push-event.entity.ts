import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AgentPushConfigEntity } from './agent-push-config.entity.js';

export const PUSH_EVENT_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type PushEventStatus = (typeof PUSH_EVENT_STATUSES)[number];

/**
 * One callback the upstream made, kept so the delivery job carries only ids and so duplicates are recognised
 * (same body hash for the same config within the dedupe window). Not append-only: the delivery job updates `status`
 * and `attempts`, and a `pending` row whose job was lost is re-enqueued by the job recovery sweep. Rows are purged
 * with the agent history retention.
 */
@Entity({ name: 'agent_push_events' })
@Index('idx_agent_push_events_config_hash', ['push_config_id', 'body_hash', 'created_at'])
@Index('idx_agent_push_events_created_at', ['created_at'])
@Index('idx_agent_push_events_pending', ['created_at'], { where: `"status" = 'pending'` })
export class AgentPushEventEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_agent_push_events' })
  id: string;

  @Column({ name: 'push_config_id', type: 'uuid' })
  push_config_id: string;

  @ManyToOne(() => AgentPushConfigEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'push_config_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'fk_agent_push_events_config',
  })
  config?: AgentPushConfigEntity;

  @Column({ name: 'body_hash', type: 'varchar', length: 64 })
  body_hash: string;

  /** The StreamResponse exactly as the upstream sent it (text, so it is re-delivered byte for byte). */
  @Column({ type: 'text' })
  body: string;

  @Column({ name: 'task_id', type: 'text', nullable: true })
  task_id: string | null;

  /** The history row of the callback (delivery attempts are its children). */
  @Column({ name: 'operation_id', type: 'uuid', nullable: true })
  operation_id: string | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: PushEventStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  delivered_at: Date | null;
}
