import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export const LOG_STATUSES = ['processing', 'success', 'error'] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];

/**
 * One inference request as the logs show it: who called, where it went, what it cost and how it ended. A request
 * whose primary model failed and fell back writes one row per model tried: the primary's row carries the request's id,
 * each fallback's row points at it with `parent_request_id` and its `fallback_index`. Only the hot columns live here
 * (every filter and sort has its index) and the searched text; input and output content sit in `request_log_contents`,
 * read for one row.
 */
@Entity({ name: 'request_logs' })
// The time index, each filter's (column, timestamp) index and the latency, tokens and cost indexes also carry the columns the stats read (INCLUDE, made by
// the migrations: TypeORM cannot say INCLUDE), so stats and histograms over a time range or one filter are index-only
// scans instead of reads of every matching heap page.
@Index('idx_request_logs_timestamp', { synchronize: false })
@Index('idx_request_logs_provider_timestamp', { synchronize: false })
@Index('idx_request_logs_model_timestamp', { synchronize: false })
@Index('idx_request_logs_status_timestamp', { synchronize: false })
@Index('idx_request_logs_object_timestamp', { synchronize: false })
@Index('idx_request_logs_selected_key_timestamp', { synchronize: false })
@Index('idx_request_logs_virtual_key_timestamp', { synchronize: false })
@Index('idx_request_logs_team_timestamp', { synchronize: false })
@Index('idx_request_logs_customer_timestamp', { synchronize: false })
@Index('idx_request_logs_routing_rule_timestamp', { synchronize: false })
@Index('idx_request_logs_latency', { synchronize: false })
@Index('idx_request_logs_total_tokens', { synchronize: false })
@Index('idx_request_logs_cost', { synchronize: false })
@Index('idx_request_logs_parent_request_id', ['parent_request_id'])
// Descending (cost, id) and (total_tokens, id) with NULLS LAST, made by the migration (TypeORM cannot say NULLS LAST).
@Index('idx_request_logs_cost_desc', { synchronize: false })
@Index('idx_request_logs_total_tokens_desc', { synchronize: false })
// A GIN trigram index on search_text, made by migration RequestLogSearchText when pg_trgm exists.
@Index('idx_request_logs_search_trgm', { synchronize: false })
export class RequestLogEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_request_logs' })
  id: string;

  /** Set on a fallback attempt's row: the id of the request (the primary's row). */
  @Column({ name: 'parent_request_id', type: 'uuid', nullable: true })
  parent_request_id: string | null;

  /** When the request (or this fallback attempt) started. */
  @Column({ type: 'timestamptz' })
  timestamp: Date;

  /** The request type: `chat_completion`, `text_completion`, `responses`, `embedding`, `rerank`, `count_tokens`. */
  @Column({ type: 'varchar', length: 32 })
  object: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  provider: string | null;

  /** The model sent to the provider (after key aliases), or the requested one when no provider was reached. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  model: string | null;

  /** The model the caller asked for, when a key alias mapped it to another. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  alias: string | null;

  @Column({ name: 'canonical_model_name', type: 'varchar', length: 255, nullable: true })
  canonical_model_name: string | null;

  @Column({ name: 'alias_model_family', type: 'varchar', length: 255, nullable: true })
  alias_model_family: string | null;

  @Column({ name: 'fallback_index', type: 'integer', default: 0 })
  fallback_index: number;

  @Column({ name: 'number_of_retries', type: 'integer', default: 0 })
  number_of_retries: number;

  @Column({ name: 'selected_key_id', type: 'varchar', length: 64, nullable: true })
  selected_key_id: string | null;

  @Column({ name: 'selected_key_name', type: 'varchar', length: 255, nullable: true })
  selected_key_name: string | null;

  @Column({ name: 'virtual_key_id', type: 'varchar', length: 64, nullable: true })
  virtual_key_id: string | null;

  @Column({ name: 'virtual_key_name', type: 'varchar', length: 255, nullable: true })
  virtual_key_name: string | null;

  @Column({ name: 'team_id', type: 'varchar', length: 64, nullable: true })
  team_id: string | null;

  @Column({ name: 'customer_id', type: 'varchar', length: 64, nullable: true })
  customer_id: string | null;

  @Column({ name: 'routing_rule_id', type: 'varchar', length: 64, nullable: true })
  routing_rule_id: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: LogStatus;

  /** The HTTP status the caller got (499: the caller went away). */
  @Column({ name: 'status_code', type: 'integer' })
  status_code: number;

  @Column({ type: 'boolean', default: false })
  stream: boolean;

  /** Milliseconds from the start to the last byte sent (or the failure). */
  @Column({ type: 'double precision' })
  latency: number;

  /** Streams: milliseconds to the first event. */
  @Column({ name: 'time_to_first_token', type: 'double precision', nullable: true })
  time_to_first_token: number | null;

  @Column({ name: 'prompt_tokens', type: 'integer', nullable: true })
  prompt_tokens: number | null;

  @Column({ name: 'completion_tokens', type: 'integer', nullable: true })
  completion_tokens: number | null;

  @Column({ name: 'total_tokens', type: 'integer', nullable: true })
  total_tokens: number | null;

  /** USD; null when the price is unknown (`missing_cost_only`). */
  @Column({ type: 'double precision', nullable: true })
  cost: number | null;

  @Column({ name: 'stop_reason', type: 'varchar', length: 64, nullable: true })
  stop_reason: string | null;

  /** The failure's `extra_fields.error_type` (e.g. `provider_rate_limited`). */
  @Column({ name: 'error_type', type: 'varchar', length: 64, nullable: true })
  error_type: string | null;

  /** The first characters of the last input message: what the list shows without reading the content table. */
  @Column({ name: 'content_summary', type: 'varchar', length: 256, nullable: true })
  content_summary: string | null;

  /**
   * Input and output text, case-folded (`foldForSearch`), for `content_search`: in the log row, so a search's
   * candidates are checked and filtered on one narrow heap row each (not a wide content row, then its log row).
   * Never listed.
   */
  @Column({ name: 'search_text', type: 'text', nullable: true })
  search_text: string | null;

  /** The Usage object as the caller got it, with its cost breakdown. */
  @Column({ name: 'token_usage', type: 'json', nullable: true })
  token_usage: Record<string, unknown> | null;

  /** The GatewayError body the caller got. */
  @Column({ name: 'error_details', type: 'json', nullable: true })
  error_details: Record<string, unknown> | null;

  /** Captured request headers (`logs.metadata_header_prefix`, prefix removed) and the caller's own `x-request-id`. */
  @Column({ type: 'json', nullable: true })
  metadata: Record<string, string> | null;

  /** Answered by a plugin from the response cache: no provider was called, nothing was charged. */
  @Column({ name: 'cache_hit', type: 'boolean', default: false })
  cache_hit: boolean;

  /** `direct` or `semantic` on a cache hit (the answer's `x-gateway-cache-type`). */
  @Column({ name: 'cache_type', type: 'varchar', length: 16, nullable: true })
  cache_type: string | null;

  /** What the plugins logged on the request: a JSON array of `{ plugin, level, message, at_ms }` (primary row). */
  @Column({ name: 'plugin_logs', type: 'text', nullable: true })
  plugin_logs: string | null;
}
