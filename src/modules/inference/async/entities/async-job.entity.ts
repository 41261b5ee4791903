import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export const ASYNC_JOB_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type AsyncJobStatus = (typeof ASYNC_JOB_STATUSES)[number];

/**
 * One async inference job (docs/async.md): the request as it will be replayed on a worker, and its outcome. The row
 * is the source of truth for status and result; the queue job only says "run this row". The request's credentials are
 * never stored: the job runs as its virtual key by id.
 */
@Entity({ name: 'async_jobs' })
@Index('ix_async_jobs_status_created_at', ['status', 'created_at'])
@Index('ix_async_jobs_virtual_key_id_created_at', ['virtual_key_id', 'created_at'])
@Index('ix_async_jobs_created_at', ['created_at'])
@Index('ix_async_jobs_expires_at', ['expires_at'])
export class AsyncJobEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_async_jobs' })
  id: string;

  /** The `<type>` of `/v1/async/<type>` (`chat/completions`, `audio/speech`, ...), or the native operation's kind. */
  @Column({ type: 'varchar', length: 64 })
  type: string;

  /** The synchronous route the job replays (path and query, credentials removed). */
  @Column({ type: 'text' })
  path: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: AsyncJobStatus;

  /** The answer's HTTP status once the job finished. */
  @Column({ name: 'status_code', type: 'integer', nullable: true })
  status_code: number | null;

  @Column({ name: 'virtual_key_id', type: 'uuid', nullable: true })
  virtual_key_id: string | null;

  @Column({ name: 'request_body', type: 'bytea' })
  request_body: Buffer;

  @Column({ name: 'request_content_type', type: 'varchar', length: 255 })
  request_content_type: string;

  /** The request headers the synchronous route reads (routing pins, log metadata, provider betas); never credentials. */
  @Column({ name: 'request_headers', type: 'jsonb' })
  request_headers: Record<string, string>;

  /** The synchronous answer (JSON; a binary or text answer as `{ content_type, data | text }`). */
  @Column({ type: 'jsonb', nullable: true })
  result: Record<string, unknown> | null;

  /** The GatewayError of a failed job. */
  @Column({ type: 'jsonb', nullable: true })
  error: Record<string, unknown> | null;

  /** Seconds the result stays readable after completion. */
  @Column({ name: 'result_ttl', type: 'integer' })
  result_ttl: number;

  @Column({ name: 'webhook_id', type: 'uuid', nullable: true })
  webhook_id: string | null;

  /** Runs started (a run that never reached the provider may be retried). */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /** Set just before the request went to the provider: from then on a lost run is failed, never sent twice. */
  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true })
  dispatched_at: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  started_at: Date | null;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completed_at: Date | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expires_at: Date | null;
}
