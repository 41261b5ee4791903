import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A setup-lock session (cookie `gateway_setup_session`), exchanged once for the setup token. Stored hashed. */
@Entity({ name: 'setup_sessions' })
@Index('idx_setup_sessions_expires_at', ['expires_at'])
export class SetupSessionEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_setup_sessions' })
  id: string;

  @Index('uq_setup_sessions_token_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  token_hash: string;

  @Column({ type: 'timestamptz' })
  created_at: Date;

  @Column({ type: 'timestamptz' })
  expires_at: Date;
}
