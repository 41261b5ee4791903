import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccessProfilePropagationEntity } from './access-profile-propagation.entity.js';

export const PROPAGATION_OUTCOMES = ['affected', 'failed', 'skipped'] as const;
export type PropagationOutcome = (typeof PROPAGATION_OUTCOMES)[number];

/**
 * One selected user's outcome in a propagation, written in the same transaction as that user's copy change: a
 * retried job skips users with a row, so no user is applied twice. `key_synced` turns true in the transaction that
 * rewrote the user's managed keys; an affected row still false after it is a key sync failure (`message`).
 * No foreign key to users: a selected id that names no user is recorded as skipped.
 */
@Entity({ name: 'access_profile_propagation_users' })
export class AccessProfilePropagationUserEntity {
  @PrimaryColumn({
    name: 'propagation_id',
    type: 'uuid',
    primaryKeyConstraintName: 'pk_access_profile_propagation_users',
  })
  propagation_id: string;

  @ManyToOne(() => AccessProfilePropagationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'propagation_id',
    foreignKeyConstraintName: 'fk_access_profile_propagation_users_propagation_id',
  })
  propagation?: AccessProfilePropagationEntity;

  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'pk_access_profile_propagation_users' })
  user_id: string;

  @Column({ type: 'varchar', length: 16 })
  outcome: PropagationOutcome;

  @Column({ name: 'key_synced', type: 'boolean', default: false })
  key_synced: boolean;

  /** Why it failed or was skipped, or the key sync error of an affected user. */
  @Column({ type: 'text', nullable: true })
  message: string | null;
}
