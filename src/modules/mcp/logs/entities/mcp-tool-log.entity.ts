import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { McpRequestType } from '../../mcp-contract.js';

export const MCP_LOG_STATUSES = ['processing', 'success', 'error'] as const;
export type McpLogStatus = (typeof MCP_LOG_STATUSES)[number];

/** What `search_text` holds: the arguments' and result's JSON text, lowercased. */
export const SEARCH_TEXT_EXPRESSION = `lower(COALESCE(("arguments")::text, '') || ' ' || COALESCE(("result")::text, ''))`;

/**
 * One MCP tool call: written `processing` when the call starts, completed (`success` or `error`, latency, result or
 * error, cost) when it ends. Every filter and sort of `/api/mcp-logs` has its index, all made by the migration
 * (TypeORM cannot say INCLUDE, NULLS LAST, partial or trigram): the time index and each filter's (column, timestamp)
 * index INCLUDE status, latency and cost so stats and histograms are index-only scans; latency and cost have one
 * index per direction (unknown values last both ways); `content_search` is a trigram index on `search_text` when
 * `pg_trgm` exists.
 */
@Entity({ name: 'mcp_tool_logs' })
@Index('idx_mcp_tool_logs_timestamp', { synchronize: false })
@Index('idx_mcp_tool_logs_tool_name_timestamp', { synchronize: false })
@Index('idx_mcp_tool_logs_server_label_timestamp', { synchronize: false })
@Index('idx_mcp_tool_logs_status_timestamp', { synchronize: false })
@Index('idx_mcp_tool_logs_virtual_key_timestamp', { synchronize: false })
@Index('idx_mcp_tool_logs_llm_request_timestamp', { synchronize: false })
@Index('idx_mcp_tool_logs_latency', { synchronize: false })
@Index('idx_mcp_tool_logs_latency_desc', { synchronize: false })
@Index('idx_mcp_tool_logs_cost', { synchronize: false })
@Index('idx_mcp_tool_logs_cost_desc', { synchronize: false })
@Index('idx_mcp_tool_logs_search_trgm', { synchronize: false })
@Check('chk_mcp_tool_logs_mcp_request_type', `"mcp_request_type" IN ('tool', 'resource', 'prompt', 'completion')`)
export class McpToolLogEntity {
  @PrimaryColumn({ type: 'varchar', length: 128, primaryKeyConstraintName: 'pk_mcp_tool_logs' })
  id: string;

  /** The inference request that asked for the call (agent mode). */
  @Column({ name: 'llm_request_id', type: 'varchar', length: 128, nullable: true })
  llm_request_id: string | null;

  @Column({ name: 'project_id', type: 'varchar', length: 64, nullable: true })
  project_id: string | null;

  @Column({ name: 'project_name', type: 'varchar', length: 255, nullable: true })
  project_name: string | null;

  /** When the call started. */
  @Column({ type: 'timestamptz' })
  timestamp: Date;

  /** The exposed name (`<client>-<tool>`); empty on a row whose start was never written. */
  @Column({ name: 'tool_name', type: 'varchar', length: 255 })
  tool_name: string;

  /** The MCP client's name. */
  @Column({ name: 'server_label', type: 'varchar', length: 255 })
  server_label: string;

  /**
   * What was relayed: `tool` (`tool_name` is `<client>-<tool>`), `prompt` (`<client>-<prompt>`), `resource` (a read;
   * `tool_name` is the URI), `completion` (`<client>-<prompt>` or the resource template).
   */
  @Column({ name: 'mcp_request_type', type: 'varchar', length: 16, default: 'tool' })
  mcp_request_type: McpRequestType;

  @Column({ name: 'virtual_key_id', type: 'varchar', length: 64, nullable: true })
  virtual_key_id: string | null;

  @Column({ name: 'virtual_key_name', type: 'varchar', length: 255, nullable: true })
  virtual_key_name: string | null;

  @Column({ type: 'jsonb', nullable: true })
  arguments: Record<string, unknown> | null;

  /** The tool's result (a CallToolResult, or its content parsed); kept on `isError: true` results too. */
  @Column({ type: 'jsonb', nullable: true })
  result: unknown;

  /** A GatewayError body. */
  @Column({ name: 'error_details', type: 'jsonb', nullable: true })
  error_details: Record<string, unknown> | null;

  /** Milliseconds; null while processing. */
  @Column({ type: 'double precision', nullable: true })
  latency: number | null;

  /** USD, on success only. */
  @Column({ type: 'double precision', nullable: true })
  cost: number | null;

  @Column({ type: 'varchar', length: 16 })
  status: McpLogStatus;

  @Column({ type: 'jsonb', nullable: true })
  metadata: Record<string, string> | null;

  @Column({ name: 'plugin_logs', type: 'text', nullable: true })
  plugin_logs: string | null;

  @Column({ name: 'redaction_mapping', type: 'jsonb', nullable: true })
  redaction_mapping: { input: Record<string, unknown>; output: Record<string, unknown> } | null;

  /**
   * What `content_search` reads, computed by Postgres whenever the row is written. A search's trigram bitmap is a
   * superset of the matches, and each candidate is checked again: a LIKE on this stored text, where the expression
   * rendered two jsonb values to text and case-folded them per candidate (a mid-frequency term at 1M rows: a third
   * less time; a common one, a quarter of it). `lower(x) LIKE lower(p)` is what ILIKE does on a UTF-8 database.
   */
  @Column({
    name: 'search_text',
    type: 'text',
    nullable: true,
    select: false,
    insert: false,
    update: false,
    generatedType: 'STORED',
    asExpression: SEARCH_TEXT_EXPRESSION,
  })
  search_text?: string | null;

  /** When the row was first appended. */
  @Column({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
