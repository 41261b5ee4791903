import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { AppendLogWriter } from '../../core/append-log/append-log.writer.js';
import { parseDuration } from '../../core/config/duration.js';
import { GatewayConfig } from '../../core/config/gateway-config.js';
import { ExpiredRowsRegistry } from '../../core/maintenance/expired-rows.service.js';
import type { AuditLogDto, AuditLogListDto } from './dto/audit-log.dto.js';
import type { ListAuditLogsQueryDto } from './dto/list-audit-logs.query.dto.js';
import { AuditLogEntity } from './entities/audit-log.entity.js';

export type AuditRecord = Omit<AuditLogEntity, 'id' | 'created_at' | 'metadata'> & {
  metadata?: Record<string, unknown> | null;
};

/** The append-log kind of `audit_logs` rows (metric label, config key of the retention). */
export const AUDIT_LOGS_KIND = 'audit_logs';

const DEFAULT_LIMIT = 50;

function toDto(row: AuditLogEntity): AuditLogDto {
  return { ...row, created_at: row.created_at.toISOString() };
}

/**
 * Writes audit rows off the response path (the append-log writer batches them) and lists them. Rows older than
 * `audit_logs.retention` are purged.
 */
@Injectable()
export class AuditService {
  constructor(
    @InjectRepository(AuditLogEntity) private readonly repo: Repository<AuditLogEntity>,
    private readonly writer: AppendLogWriter,
    expiredRows: ExpiredRowsRegistry,
    config: GatewayConfig,
  ) {
    writer.register(AUDIT_LOGS_KIND, { target: AuditLogEntity });
    expiredRows.register({
      name: 'audit_logs',
      table: 'audit_logs',
      column: 'created_at',
      retentionMs: parseDuration(config.audit_logs.retention),
    });
  }

  /** Fire and forget: a failed audit write is logged and counted, never surfaced to the caller. */
  record(entry: AuditRecord): void {
    // The writer fits every text value to its column (NUL removed, cut with a marker): nothing unfit is refused.
    const row: AuditLogEntity = {
      id: randomUUID(),
      actor: entry.actor,
      auth_method: entry.auth_method,
      permission: entry.permission,
      method: entry.method,
      route: entry.route,
      path: entry.path,
      target_id: entry.target_id,
      status_code: entry.status_code,
      client_address: entry.client_address,
      metadata: entry.metadata ?? null,
      created_at: new Date(),
    };
    this.writer.append(AUDIT_LOGS_KIND, row);
  }

  /** Resolves once every entry recorded so far is written (reads, tests). */
  flush(): Promise<void> {
    return this.writer.flush(AUDIT_LOGS_KIND);
  }

  async list(query: ListAuditLogsQueryDto): Promise<AuditLogListDto> {
    // A caller reads its own writes, including the audit row of the request it just made.
    await this.flush();
    const limit = query.limit ?? DEFAULT_LIMIT;
    const offset = query.offset ?? 0;
    const qb = this.repo.createQueryBuilder('a');
    if (query.actor !== undefined) qb.andWhere('a.actor = :actor', { actor: query.actor });
    if (query.method !== undefined) qb.andWhere('a.method = :method', { method: query.method });
    if (query.status_code !== undefined) qb.andWhere('a.status_code = :status', { status: query.status_code });
    if (query.permission !== undefined) qb.andWhere('a.permission = :permission', { permission: query.permission });
    if (query.start_time !== undefined) qb.andWhere('a.created_at >= :start', { start: new Date(query.start_time) });
    if (query.end_time !== undefined) qb.andWhere('a.created_at <= :end', { end: new Date(query.end_time) });
    const [rows, total] = await qb
      .orderBy('a.created_at', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .skip(offset)
      .take(limit)
      .getManyAndCount();
    return {
      audit_logs: rows.map(toDto),
      count: rows.length,
      pagination: { total_count: total, limit, offset, sort_by: 'created_at', order: 'desc' },
    };
  }
}
