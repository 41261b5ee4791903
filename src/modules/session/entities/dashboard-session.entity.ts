import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A dashboard login. Only the SHA-256 of the opaque token is stored; logout deletes the row. */
@Entity({ name: 'dashboard_sessions' })
@Index('idx_dashboard_sessions_expires_at', ['expires_at'])
export class DashboardSessionEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_dashboard_sessions' })
  id: string;

  @Index('uq_dashboard_sessions_token_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  token_hash: string;

  /** `admin` (the local admin of auth_config) or `user` (a governance user). */
  @Column({ type: 'varchar', length: 16 })
  subject_kind: 'admin' | 'user';

  @Column({ type: 'varchar', length: 255, nullable: true })
  user_id: string | null;

  /** The login name the session was opened with (admin username or user email). */
  @Column({ type: 'varchar', length: 255 })
  username: string;

  /**
   * Admin sessions: the fingerprint of the admin credentials they were opened under (AdminCredentialsService);
   * a session whose stamp no longer matches died with the password. Null for user sessions, which are revoked when
   * the user's password changes.
   */
  @Column({ type: 'varchar', length: 64, nullable: true })
  credential_stamp: string | null;

  @Column({ type: 'timestamptz' })
  created_at: Date;

  @Column({ type: 'timestamptz' })
  expires_at: Date;
}
