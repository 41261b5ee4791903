import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { parseDuration } from '../config/duration.js';
import { GatewayConfig } from '../config/gateway-config.js';
import { LOGGER } from '../logging/logging.module.js';
import { MetricsService, type AppendLogDropReason } from '../metrics/metrics.service.js';
import { insertBatch, type InsertTarget } from './batch-insert.js';

/** How a module declares one kind of append-only record. */
export interface AppendLogKindOptions {
  /** An entity class (or its name), or a bare table name; then `columns` is required. */
  target: EntityTarget<ObjectLiteral>;
  /** The columns of a bare table (entities take theirs from the metadata). */
  columns?: readonly string[];
  /**
   * Rows that complete earlier ones (entity kinds only): a row whose `key` property matches a row still waiting in the
   * buffer is merged into it (`merge` mutates the waiting row), so both land as one; a row whose earlier one was
   * already taken for writing is inserted with `onConflict` (e.g. `ON CONFLICT ("id") DO UPDATE SET …`).
   */
  upsert?: {
    key: string;
    merge: (waiting: ObjectLiteral, incoming: ObjectLiteral) => void;
    onConflict: string;
  };
}

/** Postgres takes at most 65,535 parameters per statement: big batches of wide rows are split below it. */
const MAX_PARAMETERS = 60_000;
const KIND_PATTERN = /^[a-z][a-z0-9_]*$/;

interface KindState extends InsertTarget {
  kind: string;
  /** Rows per INSERT: batch_size, or fewer for rows so wide that a batch would pass the parameter limit. */
  chunk: number;
  buffer: ObjectLiteral[];
  /** Rows taken from the buffer whose INSERT has not finished. */
  inFlight: number;
  /** The interval flush of rows waiting in the buffer. */
  timer?: NodeJS.Timeout;
  /** The last drain scheduled: drains of a kind run one after the other. */
  chain: Promise<void>;
  /** A drain scheduled and not started yet, which later triggers join. */
  queued: { promise: Promise<void>; all: boolean } | null;
  /** Rows refused because the buffer was full since the last warning. */
  unreportedFull: number;
  /** Whether a row appended after close() was reported (once: late appends come in bursts). */
  reportedClosed: boolean;
  /** Writes are paused: the database is unavailable, the rows wait in the buffer (logged once per pause). */
  paused: boolean;
  /** Rows written and rows given up since start, by reason (`GET /api/logs/dropped`). */
  written: number;
  dropped: Record<AppendLogDropReason, number>;
  /** Upsert kinds: the waiting rows by key. */
  waiting?: {
    key: string;
    merge: (waiting: ObjectLiteral, incoming: ObjectLiteral) => void;
    rows: Map<unknown, ObjectLiteral>;
  };
}

/** A kind's counts since start. */
export interface AppendLogKindStats {
  written: number;
  dropped: Record<AppendLogDropReason, number>;
  /** Rows appended and not yet written or dropped. */
  pending: number;
}

/**
 * The writer of append-only records (agent history, audit logs, later request and MCP tool logs). `append` never
 * waits for the database: rows go into a bounded buffer per kind and are written as multi-row INSERTs, as soon as
 * `batch_size` rows wait or after `flush_interval`, one write at a time per kind. A full buffer drops new rows; a
 * write that fails twice drops its rows, unless the database is down or unreachable: then they wait in the buffer
 * and are tried again every `flush_interval` until it answers; both are counted in `/metrics` and logged with the kind and the count, never
 * with the rows (they may hold payloads). Everything appended is written before the database closes.
 */
@Injectable()
export class AppendLogWriter implements BeforeApplicationShutdown {
  private readonly kinds = new Map<string, KindState>();
  private readonly maxBuffered: number;
  private readonly batchSize: number;
  private readonly intervalMs: number;
  private readonly logger: Logger;
  private closed = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly metrics: MetricsService,
    config: GatewayConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.maxBuffered = config.append_log.max_buffered_rows;
    // A batch never waits for more rows than the buffer may hold.
    this.batchSize = Math.min(config.append_log.batch_size, this.maxBuffered);
    this.intervalMs = parseDuration(config.append_log.flush_interval) ?? 200;
    this.logger = logger.child({ context: 'append-log' });
    metrics.watchAppendLogBuffers(() => [...this.kinds.values()].map((s) => [s.kind, s.buffer.length + s.inFlight]));
  }

  /** Declares a kind (a metric label: lower snake case). Registering the same kind for the same target again is a no-op. */
  register(kind: string, options: AppendLogKindOptions): void {
    if (!KIND_PATTERN.test(kind)) throw new Error(`append log kind ${JSON.stringify(kind)} must match ${KIND_PATTERN}`);
    const existing = this.kinds.get(kind);
    if (existing) {
      if (existing.target === options.target) return;
      throw new Error(`append log kind ${kind} is already registered for another target`);
    }
    const hasMetadata = this.dataSource.hasMetadata(options.target);
    if (!hasMetadata && !options.columns?.length) {
      throw new Error(`append log kind ${kind}: a target without entity metadata needs its columns`);
    }
    const width = options.columns?.length ?? this.dataSource.getMetadata(options.target).columns.length;
    if (options.upsert && options.columns) throw new Error(`append log kind ${kind}: upsert needs an entity target`);
    this.kinds.set(kind, {
      kind,
      target: options.target,
      ...(options.columns ? { columns: [...options.columns] } : {}),
      chunk: Math.max(1, Math.min(this.batchSize, Math.floor(MAX_PARAMETERS / Math.max(1, width)))),
      buffer: [],
      inFlight: 0,
      chain: Promise.resolve(),
      queued: null,
      unreportedFull: 0,
      reportedClosed: false,
      paused: false,
      written: 0,
      dropped: { buffer_full: 0, write_failed: 0 },
      ...(options.upsert
        ? {
            onConflict: options.upsert.onConflict,
            waiting: { key: options.upsert.key, merge: options.upsert.merge, rows: new Map() },
          }
        : {}),
    });
    this.metrics.initAppendLogKind(kind);
  }

  /** Queues one row for writing; never waits and never throws for database reasons. */
  append(kind: string, row: ObjectLiteral): void {
    const state = this.kinds.get(kind);
    if (!state) throw new Error(`append log kind ${kind} is not registered`);
    if (this.closed) {
      state.dropped.write_failed++;
      this.metrics.countAppendLogDropped(kind, 'write_failed', 1);
      if (!state.reportedClosed) {
        state.reportedClosed = true;
        this.logger.warn({ kind, reason: 'write_failed' }, 'append log closed: rows appended after shutdown dropped');
      }
      return;
    }
    const waiting = state.waiting?.rows.get(row[state.waiting.key]);
    if (waiting) {
      state.waiting!.merge(waiting, row);
      return;
    }
    if (state.buffer.length >= this.maxBuffered) {
      state.unreportedFull++;
      state.dropped.buffer_full++;
      this.metrics.countAppendLogDropped(kind, 'buffer_full', 1);
      // The buffer is full, so a write is under way or scheduled: its end reports the drops once.
      return;
    }
    state.buffer.push(row);
    state.waiting?.rows.set(row[state.waiting.key], row);
    if (state.buffer.length >= this.batchSize) void this.schedule(state, false);
    this.armTimer(state);
  }

  /** Resolves once every row appended so far (of `kind`, or of every kind) is written or dropped. */
  async flush(kind?: string): Promise<void> {
    if (kind !== undefined) {
      const state = this.kinds.get(kind);
      if (!state) throw new Error(`append log kind ${kind} is not registered`);
      return this.schedule(state, true);
    }
    await Promise.all([...this.kinds.values()].map((state) => this.schedule(state, true)));
  }

  /** Counts of one kind since start. */
  stats(kind: string): AppendLogKindStats {
    const state = this.kinds.get(kind);
    if (!state) throw new Error(`append log kind ${kind} is not registered`);
    return { written: state.written, dropped: { ...state.dropped }, pending: state.buffer.length + state.inFlight };
  }

  /** Rows appended and not yet written (waiting or being written), by kind. */
  pending(): Record<string, number> {
    return Object.fromEntries([...this.kinds.values()].map((s) => [s.kind, s.buffer.length + s.inFlight]));
  }

  /** First write at shutdown: the bulk, while requests still finish and queue jobs drain (they may append more). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /**
   * Last write, then appends are refused (dropped and counted). Called by AppendLogLifecycle once the HTTP server is
   * closed and the queue drained, before the database pool closes.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.dataSource.isInitialized) await this.flush();
    this.closed = true;
    for (const state of this.kinds.values()) {
      clearTimeout(state.timer);
      state.timer = undefined;
      if (state.buffer.length > 0) this.drop(state, 'write_failed', this.take(state, state.buffer.length).length);
    }
  }

  /**
   * Schedules a drain of one kind after the one running. `all` writes every row waiting when it starts (interval,
   * flush); otherwise only full batches are written and the rest waits for the interval, so a busy kind writes big
   * batches instead of chasing every new row.
   */
  private schedule(state: KindState, all: boolean): Promise<void> {
    if (state.queued) {
      state.queued.all ||= all;
      return state.queued.promise;
    }
    const entry = { all, promise: Promise.resolve() };
    entry.promise = state.chain.then(() => {
      state.queued = null;
      return this.drain(state, entry.all);
    });
    state.queued = entry;
    state.chain = entry.promise;
    return entry.promise;
  }

  private async drain(state: KindState, all: boolean): Promise<void> {
    if (all) {
      clearTimeout(state.timer);
      state.timer = undefined;
    }
    let remaining = all ? state.buffer.length : 0;
    while (remaining > 0 || state.buffer.length >= this.batchSize) {
      const rows = this.take(state, state.chunk);
      if (rows.length === 0) break;
      remaining = Math.max(0, remaining - rows.length);
      state.inFlight += rows.length;
      let kept = false;
      try {
        const outcome = await insertBatch(this.dataSource, state, rows);
        state.written += outcome.written;
        if (outcome.written > 0) this.metrics.countAppendLogWritten(state.kind, outcome.written);
        if (outcome.failed > 0 && outcome.unavailable && this.keep(state, rows, outcome.errorCode)) kept = true;
        else if (outcome.failed > 0) this.drop(state, 'write_failed', outcome.failed, outcome.errorCode);
        else this.resume(state);
      } catch (err) {
        // insertBatch reports failures; this is a bug, and the rows are lost all the same.
        this.drop(state, 'write_failed', rows.length, err instanceof Error ? err.name : 'unknown');
      } finally {
        state.inFlight -= rows.length;
      }
      // The database is down: the next try is the interval flush armed below, not this loop again.
      if (kept) break;
    }
    if (state.unreportedFull > 0) {
      const rows = state.unreportedFull;
      state.unreportedFull = 0;
      this.logger.warn({ kind: state.kind, rows, reason: 'buffer_full' }, 'append log rows dropped');
    }
    // Rows left behind by a full-batches drain keep (or get) their interval flush.
    if (state.buffer.length > 0 && !this.closed) this.armTimer(state);
  }

  /**
   * Puts a batch the database could not take (down or unreachable) back at the front of the buffer, to be written once
   * it answers again: a short outage costs no rows. The buffer bound still holds: what does not fit is dropped and
   * counted as `buffer_full` (the newest rows). Upsert kinds, whose later rows may already wait to complete these,
   * and a closed writer keep the drop. False when the rows were not kept.
   */
  private keep(state: KindState, rows: ObjectLiteral[], errorCode?: string): boolean {
    if (this.closed || state.waiting) return false;
    state.buffer.unshift(...rows);
    const over = state.buffer.length - this.maxBuffered;
    if (over > 0) {
      state.buffer.splice(this.maxBuffered, over);
      state.dropped.buffer_full += over;
      this.metrics.countAppendLogDropped(state.kind, 'buffer_full', over);
      state.unreportedFull += over;
    }
    if (!state.paused) {
      state.paused = true;
      this.logger.warn(
        { kind: state.kind, rows: state.buffer.length, ...(errorCode ? { error_code: errorCode } : {}) },
        'append log writes paused: database unavailable, rows kept until it answers',
      );
    }
    return true;
  }

  /** A write went through after a pause: said once. */
  private resume(state: KindState): void {
    if (!state.paused) return;
    state.paused = false;
    this.logger.info({ kind: state.kind, rows: state.buffer.length }, 'append log writes resumed');
  }

  /** Takes rows off the front of the buffer (they no longer take merges). */
  private take(state: KindState, count: number): ObjectLiteral[] {
    const rows = state.buffer.splice(0, count);
    if (state.waiting) for (const row of rows) state.waiting.rows.delete(row[state.waiting.key]);
    return rows;
  }

  /** Starts the interval flush of a kind unless one is pending (unref'd: waiting rows never hold the process). */
  private armTimer(state: KindState): void {
    if (state.timer) return;
    state.timer = setTimeout(() => {
      state.timer = undefined;
      void this.schedule(state, true);
    }, this.intervalMs);
    state.timer.unref();
  }

  private drop(state: KindState, reason: AppendLogDropReason, rows: number, errorCode?: string): void {
    state.dropped[reason] += rows;
    this.metrics.countAppendLogDropped(state.kind, reason, rows);
    this.logger.warn(
      { kind: state.kind, rows, reason, ...(errorCode ? { error_code: errorCode } : {}) },
      'append log rows dropped',
    );
  }
}
