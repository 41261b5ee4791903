import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The large part of a request log: input and output content, request parameters and tools, and (when enabled) the raw
 * bodies. Apart from `request_logs` so list queries never read it; the searched text is the log row's `search_text`.
 */
@Entity({ name: 'request_log_contents' })
@Index('idx_request_log_contents_timestamp', ['timestamp'])
export class RequestLogContentEntity {
  @PrimaryColumn({ name: 'log_id', type: 'uuid', primaryKeyConstraintName: 'pk_request_log_contents' })
  log_id: string;

  /** The row's timestamp again: the retention purge deletes by it without a join. */
  @Column({ type: 'timestamptz' })
  timestamp: Date;

  /** The request's messages (chat), prompt (completions) or input (responses, embeddings, rerank). */
  @Column({ name: 'input_history', type: 'json', nullable: true })
  input_history: unknown;

  /** The answer: the assistant message with its tool calls, the output items, results or an embeddings summary. */
  @Column({ name: 'output_message', type: 'json', nullable: true })
  output_message: unknown;

  /** Request parameters other than the content (temperature, max_tokens, …). */
  @Column({ type: 'json', nullable: true })
  params: Record<string, unknown> | null;

  @Column({ type: 'json', nullable: true })
  tools: unknown;

  @Column({ name: 'raw_request', type: 'text', nullable: true })
  raw_request: string | null;

  @Column({ name: 'raw_response', type: 'text', nullable: true })
  raw_response: string | null;
}
