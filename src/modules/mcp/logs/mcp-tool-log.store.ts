import { Injectable } from '@nestjs/common';
import type { ObjectLiteral } from 'typeorm';
import { AppendLogWriter, type AppendLogKindStats } from '../../../core/append-log/append-log.writer.js';
import { Clock } from '../../../core/clock/clock.js';
import { parseDuration } from '../../../core/config/duration.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { LiveEvents } from '../../../core/live/live-events.js';
import { ExpiredRowsRegistry } from '../../../core/maintenance/expired-rows.service.js';
import { redactSecrets } from '../../../core/secrets/payload-redaction.js';
import { McpToolLogWriter, type McpToolLogEnd, type McpToolLogStart } from '../mcp-contract.js';
import { McpToolLogEntity } from './entities/mcp-tool-log.entity.js';

/** The append-log kind of tool logs (metric label of `gateway_append_log_*`). */
export const MCP_TOOL_LOG_KIND = 'mcp_tool_logs';

/** Columns a call's start writes, and columns its end writes; a row is the union. */
const START_COLUMNS = [
  'timestamp',
  'tool_name',
  'server_label',
  'mcp_request_type',
  'virtual_key_id',
  'virtual_key_name',
  'llm_request_id',
  'arguments',
  'metadata',
  'created_at',
] as const;
const END_COLUMNS = ['status', 'latency', 'cost', 'result', 'error_details'] as const;

/**
 * A start and its end in different batches: the end's row (status `success`/`error`) updates the end's columns of the
 * row already written; a start arriving after its end (never in one process, possible after a retry) fills only the
 * start's columns. An end whose start was never written is inserted as it is.
 */
const ON_CONFLICT =
  `ON CONFLICT ("id") DO UPDATE SET ` +
  [
    ...END_COLUMNS.map(
      (c) => `"${c}" = CASE WHEN EXCLUDED.status = 'processing' THEN mcp_tool_logs."${c}" ELSE EXCLUDED."${c}" END`,
    ),
    ...START_COLUMNS.map(
      (c) => `"${c}" = CASE WHEN EXCLUDED.status = 'processing' THEN EXCLUDED."${c}" ELSE mcp_tool_logs."${c}" END`,
    ),
  ].join(', ');

/** The same rule in memory, for a start and its end waiting in one batch. */
function merge(waiting: ObjectLiteral, incoming: ObjectLiteral): void {
  const columns = incoming.status === 'processing' ? START_COLUMNS : END_COLUMNS;
  for (const column of columns) waiting[column] = incoming[column] as unknown;
}

/**
 * The tool log writer: `started` appends a `processing` row, `finished` completes it, both through the core's batched
 * writer (bounded buffer, drops counted): nothing here waits for the database. A start and its end in one batch are
 * merged in memory; in two batches the end is an upsert.
 */
@Injectable()
export class McpToolLogStore extends McpToolLogWriter {
  constructor(
    private readonly writer: AppendLogWriter,
    private readonly clock: Clock,
    expiredRows: ExpiredRowsRegistry,
    config: GatewayConfig,
    private readonly live: LiveEvents,
  ) {
    super();
    writer.register(MCP_TOOL_LOG_KIND, {
      target: McpToolLogEntity,
      upsert: { key: 'id', merge, onConflict: ON_CONFLICT },
    });
    expiredRows.register({
      name: 'mcp_tool_logs',
      table: 'mcp_tool_logs',
      column: 'timestamp',
      retentionMs: parseDuration(config.mcp.log_retention),
    });
  }

  started(entry: McpToolLogStart): void {
    const row: Partial<McpToolLogEntity> = {
      id: entry.id,
      timestamp: entry.timestamp,
      tool_name: entry.tool_name,
      server_label: entry.server_label,
      mcp_request_type: entry.mcp_request_type ?? 'tool',
      virtual_key_id: entry.virtual_key_id ?? null,
      virtual_key_name: entry.virtual_key_name ?? null,
      llm_request_id: entry.llm_request_id ?? null,
      // Fields named like credentials are stored as `<REDACTED>` (the call itself got them as sent).
      arguments: redactSecrets(entry.arguments),
      metadata: entry.metadata ?? null,
      status: 'processing',
      created_at: new Date(this.clock.now()),
    };
    this.writer.append(MCP_TOOL_LOG_KIND, row);
    if (this.live.listening) {
      const view = { ...row, timestamp: entry.timestamp.toISOString(), created_at: row.created_at!.toISOString() };
      this.live.publish({ type: 'mcp_log', action: 'created', id: entry.id, data: view, requires: 'MCPLogs' });
    }
  }

  finished(id: string, end: McpToolLogEnd): void {
    const now = this.clock.now();
    // Complete on its own when its start was never written: the call began `latency` ago, under an unknown name.
    const row: Partial<McpToolLogEntity> = {
      id,
      timestamp: new Date(now - Math.max(0, end.latency)),
      tool_name: '',
      server_label: '',
      mcp_request_type: end.mcp_request_type ?? 'tool',
      created_at: new Date(now),
      status: end.status,
      latency: end.latency,
      cost: end.status === 'success' ? (end.cost ?? null) : null,
      result: end.result === undefined ? null : redactSecrets(end.result),
      error_details: end.error_details ?? null,
    };
    this.writer.append(MCP_TOOL_LOG_KIND, row);
    if (this.live.listening) {
      // The end's own columns: the start's were pushed with `created`.
      const { status, latency, cost, result, error_details } = row;
      const view = { id, status, latency, cost, result, error_details };
      this.live.publish({ type: 'mcp_log', action: 'updated', id, data: view, requires: 'MCPLogs' });
    }
  }

  /** Resolves once every row appended so far is written (reads see what was logged before them). */
  flush(): Promise<void> {
    return this.writer.flush(MCP_TOOL_LOG_KIND);
  }

  stats(): AppendLogKindStats {
    return this.writer.stats(MCP_TOOL_LOG_KIND);
  }
}
