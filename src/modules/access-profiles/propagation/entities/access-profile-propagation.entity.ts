import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { PropagationField } from '../../access-profile-fields.js';
import { AccessProfileEntity } from '../../entities/access-profile.entity.js';

export const PROPAGATION_STATUSES = ['running', 'completed', 'failed'] as const;
export type PropagationStatus = (typeof PROPAGATION_STATUSES)[number];

/** The body of a propagate request as the job reads it (selectors resolved at run time). */
export interface PropagationRequest {
  fields: PropagationField[];
  user_ids: string[];
  group_ids: string[];
  reset_usage: boolean;
}

/** The contract's Propagation result. */
export interface PropagationResult {
  affected_users: number;
  failed_users: number;
  skipped_users: number;
  user_ids: string[];
  fields: PropagationField[];
  applied: boolean;
  vk_sync_errors: string[];
}

/** The partial unique index that lets one propagation per profile run at a time, across every replica. */
export const ONE_RUNNING_PER_PROFILE = 'uq_access_profile_propagations_running_profile';

/**
 * One propagation of a template to its holders' copies; its id is also its job's id. Users' outcomes are rows of
 * `access_profile_propagation_users`; `processed`/`total` are progress, `result` the contract's result once finished.
 */
@Entity({ name: 'access_profile_propagations' })
@Index(ONE_RUNNING_PER_PROFILE, ['access_profile_id'], { unique: true, where: `"status" = 'running'` })
@Index('ix_access_profile_propagations_status_created_at', ['status', 'created_at'])
export class AccessProfilePropagationEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_access_profile_propagations' })
  id: string;

  @Column({ name: 'access_profile_id', type: 'integer' })
  access_profile_id: number;

  @ManyToOne(() => AccessProfileEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'access_profile_id',
    foreignKeyConstraintName: 'fk_access_profile_propagations_access_profile_id',
  })
  access_profile?: AccessProfileEntity;

  @Column({ type: 'jsonb' })
  request: PropagationRequest;

  @Column({ type: 'varchar', length: 16, default: 'running' })
  status: PropagationStatus;

  /** Users selected (known once the job started; grows on a retry only by users who gained a copy meanwhile). */
  @Column({ type: 'integer', default: 0 })
  total: number;

  /** Users with a recorded outcome. */
  @Column({ type: 'integer', default: 0 })
  processed: number;

  @Column({ type: 'jsonb', nullable: true })
  result: PropagationResult | null;

  /** Why the job gave up (status `failed`). */
  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** Who asked for it (principal name or id). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  actor: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finished_at: Date | null;
}
