import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One management write, allowed or refused. Never a secret or a body. */
@Entity({ name: 'audit_logs' })
@Index('idx_audit_logs_created_at', ['created_at'])
@Index('idx_audit_logs_actor', ['actor'])
export class AuditLogEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_audit_logs' })
  id: string;

  /** Principal name (or id); null when the caller was not authenticated. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  actor: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  auth_method: string | null;

  /** `Resource:Operation` the route declares, or null (public, authenticated-only, virtual-key routes). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  permission: string | null;

  @Column({ type: 'varchar', length: 16 })
  method: string;

  /** The route pattern (`/api/agents/:name`). */
  @Column({ type: 'varchar', length: 512 })
  route: string;

  /** The request path without its query string. */
  @Column({ type: 'varchar', length: 2048 })
  path: string;

  @Column({ type: 'varchar', length: 512, nullable: true })
  target_id: string | null;

  @Column({ type: 'integer' })
  status_code: number;

  @Column({ type: 'varchar', length: 64, nullable: true })
  client_address: string | null;

  /** What a background job that acted for a caller adds (a propagation's counts); null for request rows. */
  @Column({ type: 'jsonb', nullable: true })
  metadata: Record<string, unknown> | null;

  @Column({ type: 'timestamptz' })
  created_at: Date;
}
