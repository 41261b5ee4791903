import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { LOGGER } from '../logging/logging.module.js';
import { JOBS, type JobPayloads } from '../queue/job-catalogue.js';
import { JobHandler, type JobContext } from '../queue/job-handler.decorator.js';

/**
 * A table whose rows expire, deleted by the periodic purge: without `retentionMs` rows with `column < now()` (the
 * column holds an expiry time); with it rows with `column < now() - retention` (the column holds a creation time, as
 * in append-only history and logs kept for a configured period).
 */
export interface ExpiringTable {
  /** Key of this entry in the purge result (e.g. `sessions`). */
  name: string;
  table: string;
  /** A timestamptz column; NULL never expires. It should be indexed: the purge selects by range on it. */
  column: string;
  /**
   * Keep rows this long after `column` (milliseconds, > 0). A function is asked at each purge, for a retention that
   * changes at run time (`logs.retention` through PUT /api/config).
   */
  retentionMs?: number | (() => number | undefined);
}

export interface PurgeResult {
  deleted: Record<string, number>;
}

const validRetention = (ms: number) => Number.isSafeInteger(ms) && ms > 0;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
/** Rows deleted per statement: short statements keep locks and WAL bursts small on big tables. */
export const PURGE_BATCH_SIZE = 1000;

/** Modules register their expiring tables here (usually in their constructor or onModuleInit). */
@Injectable()
export class ExpiredRowsRegistry {
  private readonly tables = new Map<string, ExpiringTable>();

  register(entry: ExpiringTable): void {
    for (const key of ['name', 'table', 'column'] as const) {
      if (!IDENTIFIER.test(entry[key])) {
        throw new Error(`expiring table ${key} ${JSON.stringify(entry[key])} must match ${String(IDENTIFIER)}`);
      }
    }
    if (typeof entry.retentionMs === 'number' && !validRetention(entry.retentionMs)) {
      throw new Error(`expiring table ${entry.name}: retentionMs must be a positive integer`);
    }
    const existing = this.tables.get(entry.name);
    if (existing && (existing.table !== entry.table || existing.column !== entry.column)) {
      throw new Error(`expiring table ${entry.name} is already registered for ${existing.table}.${existing.column}`);
    }
    this.tables.set(entry.name, { ...entry });
  }

  unregister(name: string): boolean {
    return this.tables.delete(name);
  }

  list(): ExpiringTable[] {
    return [...this.tables.values()];
  }
}

/** The `maintenance.purge-expired` job: deletes expired rows of every registered table, in batches. */
@Injectable()
export class ExpiredRowsService {
  constructor(
    private readonly registry: ExpiredRowsRegistry,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @JobHandler(JOBS.purgeExpired)
  async purgeExpired(payload: JobPayloads['maintenance.purge-expired'], context: JobContext): Promise<PurgeResult> {
    const deleted: Record<string, number> = {};
    const failures: string[] = [];
    const tables = this.registry.list();
    for (const [index, entry] of tables.entries()) {
      context.signal?.throwIfAborted();
      try {
        deleted[entry.name] = await this.purgeTable(entry, context.signal);
      } catch (err) {
        // One broken table must not stop the others; the job still fails (and retries) naming it.
        failures.push(`${entry.name}: ${err instanceof Error ? err.message : String(err)}`);
      }
      await context.updateProgress(Math.round(((index + 1) / tables.length) * 100));
    }
    const fields = { job_id: context.jobId, attempt: context.attempt, reason: payload.reason, deleted, failures };
    // A routine run that found nothing stays at debug: it runs every few minutes and at every start.
    const level = failures.length > 0 ? 'warn' : Object.values(deleted).some((n) => n > 0) ? 'info' : 'debug';
    this.logger[level](fields, 'purged expired rows');
    if (failures.length > 0) throw new Error(`purge failed for ${failures.join('; ')}`);
    return { deleted };
  }

  private async purgeTable(entry: ExpiringTable, signal?: AbortSignal): Promise<number> {
    // Identifiers were validated at registration; quoting keeps them literal.
    const table = `"${entry.table}"`;
    const column = `"${entry.column}"`;
    const retentionMs = typeof entry.retentionMs === 'function' ? entry.retentionMs() : entry.retentionMs;
    if (retentionMs !== undefined && !validRetention(retentionMs)) throw new Error(`bad retention ${retentionMs}`);
    const cutoff = retentionMs === undefined ? 'now()' : `now() - $1::double precision * interval '1 millisecond'`;
    const params = retentionMs === undefined ? [] : [retentionMs];
    const sql =
      `WITH gone AS (DELETE FROM ${table} WHERE ctid IN ` +
      `(SELECT ctid FROM ${table} WHERE ${column} < ${cutoff} LIMIT ${PURGE_BATCH_SIZE}) RETURNING 1) ` +
      `SELECT count(*)::int AS n FROM gone`;
    let total = 0;
    for (;;) {
      signal?.throwIfAborted();
      const rows: Array<{ n: number }> = await this.dataSource.query(sql, params);
      const n = Number(rows[0]?.n ?? 0);
      total += n;
      if (n < PURGE_BATCH_SIZE) return total;
    }
  }
}
