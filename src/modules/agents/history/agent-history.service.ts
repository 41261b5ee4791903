import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { type FindOptionsWhere, In, LessThanOrEqual, MoreThanOrEqual, Between, type Repository } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { findNewestFirst } from '../../../core/persistence/newest-first-page.js';
import { AgentOperationEntity, type OperationStatus } from './entities/agent-operation.entity.js';
import { redactPayload } from '../../../core/secrets/payload-redaction.js';

export interface OperationRecord {
  /** Pre-assigned id (parents whose children are written first). */
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

/** Writes and reads `agent_operations`. Writes never block or fail the proxied call. */
@Injectable()
export class AgentHistoryService implements BeforeApplicationShutdown {
  /** Writes in flight (tests and shutdown can wait for them). */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    @InjectRepository(AgentOperationEntity) private readonly repo: Repository<AgentOperationEntity>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Records an operation in the background and returns its id at once. */
  record(input: OperationRecord): string {
    const id = input.id ?? randomUUID();
    const row = this.repo.create({
      id,
      agent_name: input.agent_name,
      operation: input.operation,
      protocol_binding: input.protocol_binding ?? null,
      virtual_key_id: input.virtual_key_id ?? null,
      task_id: input.task_id || null,
      context_id: input.context_id || null,
      task_state: input.task_state || null,
      status: input.status,
      status_code: input.status_code,
      latency_ms: Math.max(0, Math.round(input.latency_ms)),
      error: input.error ?? null,
      request_payload: redactPayload(input.request_payload),
      response_payload: redactPayload(input.response_payload),
      parent_id: input.parent_id ?? null,
      created_at: new Date(),
    });
    const write = this.repo
      .insert(row as Parameters<Repository<AgentOperationEntity>['insert']>[0])
      .then(() => undefined)
      .catch((err: unknown) => {
        this.logger.warn({ err, agent: input.agent_name, operation: input.operation }, 'agent history write failed');
      });
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
    return id;
  }

  /** Pending writes land before the database pool closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** Resolves once every write started so far has finished. */
  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
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
