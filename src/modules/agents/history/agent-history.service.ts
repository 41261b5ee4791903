import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type FindOptionsWhere, In, LessThanOrEqual, MoreThanOrEqual, Between, type Repository } from 'typeorm';
import { AppendLogWriter } from '../../../core/append-log/append-log.writer.js';
import { parseDuration } from '../../../core/config/duration.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { ExpiredRowsRegistry } from '../../../core/maintenance/expired-rows.service.js';
import { findNewestFirst } from '../../../core/persistence/newest-first-page.js';
import { AgentOperationEntity, type OperationStatus } from './entities/agent-operation.entity.js';
import { textColumn } from '../../../core/append-log/text-column.js';
import { jsonbSafe, redactPayload } from '../../../core/secrets/payload-redaction.js';

/** The append-log kind of `agent_operations` rows (metric label, config key of the retention). */
export const AGENT_HISTORY_KIND = 'agent_history';

export interface OperationRecord {
  /** Pre-assigned id (a row others point at before it is written: a push callback and its deliveries). */
  id?: string;
  agent_name: string;
  operation: string;
  protocol_binding?: string | null;
  virtual_key_id?: string | null;
  task_id?: string | null;
  context_id?: string | null;
  task_state?: string | null;
  status: OperationStatus;
  status_code: number;
  latency_ms: number;
  error?: Record<string, unknown> | null;
  request_payload?: unknown;
  response_payload?: unknown;
  /** Size cap of each payload in characters of JSON (default MAX_PAYLOAD_CHARS); a stream's aggregated events take more. */
  payload_max_chars?: number;
  parent_id?: string | null;
}

export interface HistoryFilters {
  agent_names?: string[];
  operations?: string[];
  statuses?: OperationStatus[];
  virtual_key_ids?: string[];
  task_id?: string;
  start_time?: Date;
  end_time?: Date;
  limit: number;
  offset: number;
}

/**
 * Writes and reads `agent_operations`. Writes go through the append-log writer: `record` returns at once and the row
 * is written with others in one INSERT shortly after; it never blocks or fails the proxied call. Rows older than
 * `agent_history.retention` are purged.
 */
@Injectable()
export class AgentHistoryService {
  constructor(
    @InjectRepository(AgentOperationEntity) private readonly repo: Repository<AgentOperationEntity>,
    private readonly writer: AppendLogWriter,
    expiredRows: ExpiredRowsRegistry,
    config: GatewayConfig,
  ) {
    writer.register(AGENT_HISTORY_KIND, { target: AgentOperationEntity });
    expiredRows.register({
      name: 'agent_operations',
      table: 'agent_operations',
      column: 'created_at',
      retentionMs: parseDuration(config.agent_history.retention),
    });
  }

  /** Queues an operation for writing and returns its id at once. */
  record(input: OperationRecord): string {
    const id = input.id ?? randomUUID();
    // The writer fits every text value to its column (NUL removed, cut with a marker): nothing unfit is refused.
    const row: AgentOperationEntity = {
      id,
      agent_name: input.agent_name,
      operation: input.operation,
      protocol_binding: input.protocol_binding ?? null,
      virtual_key_id: input.virtual_key_id ?? null,
      // Unbounded text, but indexed: a btree entry must stay under ~2.7 kB, and 512 characters are at most 2 kB.
      task_id: textColumn(input.task_id || null, 512),
      context_id: textColumn(input.context_id || null, 1024),
      task_state: input.task_state || null,
      status: input.status,
      status_code: Math.trunc(input.status_code),
      latency_ms: Math.max(0, Math.round(input.latency_ms)),
      error: input.error ? jsonbSafe(input.error) : null,
      request_payload: redactPayload(input.request_payload, input.payload_max_chars),
      response_payload: redactPayload(input.response_payload, input.payload_max_chars),
      parent_id: input.parent_id ?? null,
      created_at: new Date(),
    };
    this.writer.append(AGENT_HISTORY_KIND, row);
    return id;
  }

  /** Resolves once every operation recorded so far is written (reads, tests). */
  flush(): Promise<void> {
    return this.writer.flush(AGENT_HISTORY_KIND);
  }

  async list(filters: HistoryFilters): Promise<{ rows: AgentOperationEntity[]; total: number }> {
    await this.flush();
    const where: FindOptionsWhere<AgentOperationEntity> = {};
    if (filters.agent_names?.length) where.agent_name = In(filters.agent_names);
    if (filters.operations?.length) where.operation = In(filters.operations);
    if (filters.statuses?.length) where.status = In(filters.statuses);
    if (filters.virtual_key_ids?.length) where.virtual_key_id = In(filters.virtual_key_ids);
    if (filters.task_id) where.task_id = filters.task_id;
    if (filters.start_time && filters.end_time) where.created_at = Between(filters.start_time, filters.end_time);
    else if (filters.start_time) where.created_at = MoreThanOrEqual(filters.start_time);
    else if (filters.end_time) where.created_at = LessThanOrEqual(filters.end_time);
    return findNewestFirst(this.repo, where, filters);
  }

  async get(id: string): Promise<AgentOperationEntity> {
    await this.flush();
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await this.repo.findOne({ where: { id } }) : null;
    if (!row) {
      throw new GatewayException(404, 'agent_operation_not_found', `Agent operation ${id} not found`);
    }
    return row;
  }
}
