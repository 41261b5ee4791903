import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { withTimeout } from '../clock/with-timeout.js';
import { droppedLogLines } from '../logging/logger.js';
import { LOGGER } from '../logging/logging.module.js';
import type { QueueDepth } from '../queue/queue-driver.js';
import { CounterSeries, HistogramSeries, PlainCounter, PlainHistogram } from './plain-series.js';

/** Why the append-log writer gave up on rows: its buffer was full, or the database refused them twice. */
export type AppendLogDropReason = 'buffer_full' | 'write_failed';
export const APPEND_LOG_DROP_REASONS: readonly AppendLogDropReason[] = ['buffer_full', 'write_failed'];
/** A scrape waits this long for the queue depth before answering without it. */
const QUEUE_DEPTH_TIMEOUT_MS = 1000;

/** Prometheus metrics of this process. One registry per application instance (tests run several). */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly requests = new PlainCounter(
    'gateway_http_requests_total',
    'HTTP requests by method, route and status',
    this.registry,
  );
  private readonly duration = new PlainHistogram(
    'gateway_http_request_duration_seconds',
    'HTTP request latency by method, route and status',
    this.registry,
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  );
  /** Both series of one (method, route, status): a request looks them up once. */
  private readonly requestSeries = new Map<string, { count: CounterSeries; duration: HistogramSeries }>();
  private readonly appendWritten = new Counter({
    name: 'gateway_append_log_written_total',
    help: 'Append-only records (history, audit, ...) written to the database, by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly appendDropped = new Counter({
    name: 'gateway_append_log_dropped_total',
    help: 'Append-only records given up, by kind and reason (buffer_full, write_failed)',
    labelNames: ['kind', 'reason'] as const,
    registers: [this.registry],
  });
  /** Read at scrape time from the writer, so appending never touches the gauge. */
  private appendBufferSource: () => Iterable<[string, number]> = () => [];
  private readonly appendBuffered = new Gauge({
    name: 'gateway_append_log_buffered_rows',
    help: 'Append-only records waiting in memory for their write, by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
    collect: () => {
      for (const [kind, rows] of this.appendBufferSource()) this.appendBuffered.set({ kind }, rows);
    },
  });

  /** Read at scrape time from the queue driver (a Redis round trip per queue with BullMQ), never per job. */
  private queueDepthSource: () => Promise<QueueDepth[]> = () => Promise.resolve([]);
  private readonly queueJobs = new Gauge({
    name: 'gateway_queue_jobs',
    help: 'Unfinished jobs by queue and state (waiting, delayed, active), read at scrape time',
    labelNames: ['queue', 'state'] as const,
    registers: [this.registry],
    collect: async () => {
      this.queueJobs.reset();
      let depths: QueueDepth[];
      try {
        depths = await withTimeout(this.queueDepthSource(), QUEUE_DEPTH_TIMEOUT_MS);
      } catch (err) {
        // A queue backend that does not answer leaves the gauge empty rather than holding the scrape.
        this.logger?.debug({ err }, 'queue depth not read');
        return;
      }
      for (const { queue, waiting, delayed, active } of depths) {
        this.queueJobs.set({ queue, state: 'waiting' }, waiting);
        this.queueJobs.set({ queue, state: 'delayed' }, delayed);
        this.queueJobs.set({ queue, state: 'active' }, active);
      }
    },
  });

  /** Read at scrape time from the log destination, so logging never touches the counter. */
  private logLinesCounted = 0;
  private readonly logLinesDropped = new Counter({
    name: 'gateway_log_lines_dropped_total',
    help: 'Log lines dropped because the log reader (stdout) did not keep up',
    registers: [this.registry],
    collect: () => {
      const total = this.logger ? droppedLogLines(this.logger) : 0;
      if (total > this.logLinesCounted) this.logLinesDropped.inc(total - this.logLinesCounted);
      this.logLinesCounted = total;
    },
  });

  constructor(@Optional() @Inject(LOGGER) private readonly logger?: Logger) {
    collectDefaultMetrics({ register: this.registry, prefix: 'gateway_' });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const id = `${method} ${status} ${route}`;
    let series = this.requestSeries.get(id);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = { count: this.requests.seriesFor(id, labels), duration: this.duration.seriesFor(id, labels) };
      this.requestSeries.set(id, series);
    }
    series.count.inc();
    series.duration.observe(seconds);
  }

  /** Makes a kind's series visible at zero before its first write or drop (so rates work from the start). */
  initAppendLogKind(kind: string): void {
    this.appendWritten.inc({ kind }, 0);
    for (const reason of APPEND_LOG_DROP_REASONS) this.appendDropped.inc({ kind, reason }, 0);
  }

  countAppendLogWritten(kind: string, rows: number): void {
    this.appendWritten.inc({ kind }, rows);
  }

  countAppendLogDropped(kind: string, reason: AppendLogDropReason, rows: number): void {
    this.appendDropped.inc({ kind, reason }, rows);
  }

  /** The writer's buffer sizes by kind, read at every scrape. */
  watchAppendLogBuffers(source: () => Iterable<[string, number]>): void {
    this.appendBufferSource = source;
  }

  /** The queue driver's job counts, read at every scrape. */
  watchQueueDepth(source: () => Promise<QueueDepth[]>): void {
    this.queueDepthSource = source;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
