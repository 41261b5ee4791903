import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { Clock } from '../../../core/clock/clock.js';
import { parseDuration } from '../../../core/config/duration.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { type JobPayloads } from '../../../core/queue/job-catalogue.js';
import { MCP_JOBS } from '../mcp.jobs.js';
import { JobHandler, type JobContext } from '../../../core/queue/job-handler.decorator.js';
import { McpToolLogStore } from './mcp-tool-log.store.js';

export const PENDING_LOG_TTL_MESSAGE = 'did not complete before the pending log TTL';
/** Rows failed per statement: short statements on a big table. */
const SWEEP_BATCH_SIZE = 1000;

/**
 * The `mcp.fail-pending-logs` job (every minute): tool logs still `processing` `mcp.pending_log_ttl` after their call
 * started (the process died mid-call, or the end's row was dropped) become `error` with a `mcp_tool_log_expired`
 * GatewayError. Served by the (status, timestamp) index.
 */
@Injectable()
export class McpToolLogSweeper {
  private readonly ttlMs: number;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly store: McpToolLogStore,
    private readonly clock: Clock,
    config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.ttlMs = parseDuration(config.mcp.pending_log_ttl) ?? 30 * 60 * 1000;
  }

  @JobHandler(MCP_JOBS.failPendingLogs)
  async failPending(payload: JobPayloads['mcp.fail-pending-logs'], context: JobContext): Promise<{ failed: number }> {
    // Rows appended before the sweep are in the table first: an end waiting in the buffer is not overwritten.
    await this.store.flush();
    const cutoff = new Date(this.clock.now() - this.ttlMs);
    const { body } = toErrorResponse(
      new GatewayException(504, 'mcp_tool_log_expired', PENDING_LOG_TTL_MESSAGE, { reason: 'gateway_dropped' }),
    );
    let failed = 0;
    for (;;) {
      context.signal?.throwIfAborted();
      const rows = await this.db.query<Array<{ n: number }>>(
        `WITH gone AS (UPDATE mcp_tool_logs SET status = 'error', error_details = $2::jsonb WHERE id IN ` +
          `(SELECT id FROM mcp_tool_logs WHERE status = 'processing' AND timestamp < $1 LIMIT ${SWEEP_BATCH_SIZE}) ` +
          `AND status = 'processing' RETURNING 1) SELECT count(*)::int AS n FROM gone`,
        [cutoff, JSON.stringify(body)],
      );
      const n = Number(rows[0]?.n ?? 0);
      failed += n;
      if (n < SWEEP_BATCH_SIZE) break;
    }
    this.logger[failed > 0 ? 'info' : 'debug'](
      { job_id: context.jobId, reason: payload.reason, failed },
      'failed pending MCP tool logs',
    );
    return { failed };
  }
}
