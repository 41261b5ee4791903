import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { MetricsService } from '../../../core/metrics/metrics.service.js';

const SECONDS_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

/**
 * Async job series on `/metrics`: how long jobs waited for a worker, how long they ran, and how they ended, by type.
 * Queue depth is the queue's own gauge (`gateway_queue_jobs{queue="gateway-async"}`).
 */
@Injectable()
export class AsyncJobMetrics {
  private readonly waitSeconds: Histogram<'type'>;
  private readonly runSeconds: Histogram<'type' | 'status'>;
  private readonly finished: Counter<'type' | 'status'>;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.waitSeconds = new Histogram({
      name: 'gateway_async_job_wait_seconds',
      help: 'Time from submit to the first run of an async job, by type',
      labelNames: ['type'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.runSeconds = new Histogram({
      name: 'gateway_async_job_run_seconds',
      help: 'Run time of an async job on a worker, by type and final status',
      labelNames: ['type', 'status'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.finished = new Counter({
      name: 'gateway_async_jobs_finished_total',
      help: 'Async jobs finished, by type and status (completed, failed)',
      labelNames: ['type', 'status'],
      registers,
    });
  }

  waited(type: string, seconds: number): void {
    this.waitSeconds.observe({ type }, seconds);
  }

  ran(type: string, status: string, seconds: number): void {
    this.runSeconds.observe({ type, status }, seconds);
    this.finished.inc({ type, status });
  }
}
