import type { JobName, JobPayloads } from './job-catalogue.js';
import type { EnqueueResult, JobView } from './job-view.js';

/** How many jobs of one queue wait, wait for their delay, or run. */
export interface QueueDepth {
  queue: string;
  waiting: number;
  delayed: number;
  active: number;
}

/** Token of the active driver (BullMQ when redis_url is set, else in-process). */
export const QUEUE_DRIVER = Symbol('QUEUE_DRIVER');

/** What QueueService needs from a queue backend; both drivers run the same handlers from the registry. */
export interface QueueDriver {
  readonly kind: 'bullmq' | 'in-process';
  /** `jobId` is already resolved (explicit or from the idempotency key) or a fresh id. */
  enqueue<K extends JobName>(
    name: K,
    payload: JobPayloads[K],
    options: { jobId: string; delayMs?: number },
  ): Promise<EnqueueResult>;
  getJob(id: string): Promise<JobView | null>;
  /** Unfinished jobs per queue by state (read at metrics scrape time, never per request). */
  jobCounts(): Promise<QueueDepth[]>;
  /** Start workers and schedules (role worker/all only). */
  startWorkers(): Promise<void>;
  /** Stop taking new jobs, wait for active ones, release timers and connections. */
  drain(): Promise<void>;
}
