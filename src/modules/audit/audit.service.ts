import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { Repository } from 'typeorm';
import { LOGGER } from '../../core/logging/logging.module.js';
import type { AuditLogDto, AuditLogListDto } from './dto/audit-log.dto.js';
import type { ListAuditLogsQueryDto } from './dto/list-audit-logs.query.dto.js';
import { AuditLogEntity } from './entities/audit-log.entity.js';

export type AuditRecord = Omit<AuditLogEntity, 'id' | 'created_at'>;

const DEFAULT_LIMIT = 50;

function toDto(row: AuditLogEntity): AuditLogDto {
  return { ...row, created_at: row.created_at.toISOString() };
}

/** Writes audit rows off the response path and lists them. */
@Injectable()
export class AuditService implements BeforeApplicationShutdown {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    @InjectRepository(AuditLogEntity) private readonly repo: Repository<AuditLogEntity>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Fire and forget: a failed audit write is logged, never surfaced to the caller. */
  record(entry: AuditRecord): void {
    const write = this.repo
      .insert({ ...entry, id: randomUUID(), created_at: new Date() })
      .then(() => undefined)
      .catch((err: unknown) => {
        this.logger.error({ err, method: entry.method, route: entry.route }, 'audit log write failed');
      })
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Lets queued writes land before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  async list(query: ListAuditLogsQueryDto): Promise<AuditLogListDto> {
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
