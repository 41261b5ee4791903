import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  backoffDelay,
  DEFAULT_KEEP_COMPLETED_MS,
  jobNames,
  jobSettings,
  QUEUE_CONCURRENCY,
  scheduledJobs,
  type JobName,
  type JobPayloads,
  type JobSettings,
  type QueueName,
} from './job-catalogue.js';
import type { JobHandlerRegistry } from './job-handler.registry.js';
import { errorMessage, runJobAttempt } from './job-runner.js';
import type { QueueDepth, QueueDriver } from './queue-driver.js';
import type { EnqueueResult, JobState, JobView } from './job-view.js';

interface JobRecord {
  id: string;
  name: JobName;
  queue: QueueName;
  payload: unknown;
  state: JobState;
  progress: number | object;
  attemptsMade: number;
  result?: unknown;
  error?: string;
  createdAt: Date;
  finishedAt?: Date;
  timer?: NodeJS.Timeout;
}

/**
 * The embedded-mode queue: jobs live in this process's memory with the same semantics as the BullMQ driver
 * (idempotent ids, delays, retries with the table's backoff, per-queue concurrency, schedules, finished jobs kept for
 * keepCompletedMs). Every timer is unref'd so a forgotten job never keeps the process alive.
 */
export class InProcessQueueDriver implements QueueDriver {
  readonly kind = 'in-process' as const;
  private readonly jobs = new Map<string, JobRecord>();
  private readonly active = new Map<QueueName, Set<Promise<void>>>();
  /** Waiting jobs per queue, in the order they became ready. */
  private readonly ready = new Map<QueueName, JobRecord[]>();
  private readonly repeatTimers: NodeJS.Timeout[] = [];
  private running = false;
  private stopped = false;

  private readonly concurrency: { [Q in QueueName]: number };

  constructor(
    private readonly registry: JobHandlerRegistry,
    private readonly logger: Logger,
    /** Per-queue overrides of QUEUE_CONCURRENCY (from the config). */
    concurrency: Partial<Record<QueueName, number>> = {},
  ) {
    this.concurrency = { ...QUEUE_CONCURRENCY, ...concurrency };
  }

  enqueue<K extends JobName>(
    name: K,
    payload: JobPayloads[K],
    options: { jobId: string; delayMs?: number },
  ): Promise<EnqueueResult> {
    if (this.stopped) return Promise.reject(new Error('queue is shut down'));
    const existing = this.jobs.get(options.jobId);
    if (existing) return Promise.resolve({ id: existing.id, deduplicated: true });
    const settings: JobSettings<K> = jobSettings(name);
    const delayMs = Math.max(0, options.delayMs ?? 0);
    const record: JobRecord = {
      id: options.jobId,
      name,
      queue: settings.queue,
      // A structured copy, as a job payload must survive serialisation in the BullMQ mode too.
      payload: structuredClone(payload),
      state: 'waiting',
      progress: 0,
      attemptsMade: 0,
      createdAt: new Date(),
    };
    this.jobs.set(record.id, record);
    if (delayMs > 0) this.delay(record, delayMs);
    else this.makeReady(record);
    return Promise.resolve({ id: record.id, deduplicated: false });
  }

  getJob(id: string): Promise<JobView | null> {
    const record = this.jobs.get(id);
    if (!record) return Promise.resolve(null);
    return Promise.resolve({
      id: record.id,
      name: record.name,
      state: record.state,
      progress: record.progress,
      attempts_made: record.attemptsMade,
      ...(record.result !== undefined ? { result: record.result } : {}),
      ...(record.error !== undefined ? { error: record.error } : {}),
      created_at: record.createdAt.toISOString(),
      ...(record.finishedAt ? { finished_at: record.finishedAt.toISOString() } : {}),
    });
  }

  /** A scan of the jobs held (unfinished ones and finished ones kept for keepCompletedMs). */
  jobCounts(): Promise<QueueDepth[]> {
    const depths = new Map<QueueName, QueueDepth>();
    for (const name of Object.keys(QUEUE_CONCURRENCY) as QueueName[]) {
      depths.set(name, { queue: name, waiting: 0, delayed: 0, active: 0 });
    }
    for (const record of this.jobs.values()) {
      const depth = depths.get(record.queue);
      if (!depth) continue;
      if (record.state === 'waiting') depth.waiting++;
      else if (record.state === 'delayed') depth.delayed++;
      else if (record.state === 'active') depth.active++;
    }
    return Promise.resolve([...depths.values()]);
  }

  startWorkers(): Promise<void> {
    this.running = true;
    for (const { name, everyMs, payload } of scheduledJobs()) {
      const fire = () => {
        this.enqueue(name, payload, { jobId: `repeat-${name}-${randomUUID()}` }).catch((err: unknown) =>
          this.logger.error({ err, job: name }, 'scheduled job not enqueued'),
        );
      };
      // Like a BullMQ scheduler with `every`: a first run at start, then one per interval.
      fire();
      const timer = setInterval(fire, everyMs);
      timer.unref();
      this.repeatTimers.push(timer);
    }
    for (const queue of new Set(jobNames().map((name) => jobSettings(name).queue))) this.pump(queue);
    return Promise.resolve();
  }

  async drain(): Promise<void> {
    this.stopped = true;
    this.running = false;
    for (const timer of this.repeatTimers.splice(0)) clearInterval(timer);
    for (const record of this.jobs.values()) clearTimeout(record.timer);
    // Loop: a job finishing may not start another (stopped), but wait for every one already running.
    for (;;) {
      const running = [...this.active.values()].flatMap((set) => [...set]);
      if (running.length === 0) break;
      await Promise.allSettled(running);
    }
  }

  private delay(record: JobRecord, ms: number): void {
    record.state = 'delayed';
    record.timer = setTimeout(() => {
      record.timer = undefined;
      this.makeReady(record);
    }, ms);
    record.timer.unref();
  }

  private makeReady(record: JobRecord): void {
    record.state = 'waiting';
    const ready = this.ready.get(record.queue) ?? [];
    this.ready.set(record.queue, ready);
    ready.push(record);
    this.pump(record.queue);
  }

  /** Starts waiting jobs of a queue in FIFO order up to the queue's concurrency. */
  private pump(queue: QueueName): void {
    if (!this.running || this.stopped) return;
    const active = this.active.get(queue) ?? new Set<Promise<void>>();
    this.active.set(queue, active);
    const ready = this.ready.get(queue) ?? [];
    while (active.size < this.concurrency[queue]) {
      const record = ready.shift();
      if (!record) return;
      record.state = 'active';
      const run = this.run(record).finally(() => {
        active.delete(run);
        this.pump(queue);
      });
      active.add(run);
    }
  }

  private async run(record: JobRecord): Promise<void> {
    const settings = jobSettings<JobName>(record.name);
    const attempt = record.attemptsMade + 1;
    try {
      const result = await runJobAttempt(this.registry, record.name, record.payload, {
        jobId: record.id,
        attempt,
        updateProgress: (progress) => {
          record.progress = progress;
          return Promise.resolve();
        },
      });
      record.attemptsMade = attempt;
      // Results are read back as JSON in the BullMQ mode; keep the same shape here.
      record.result = result === undefined ? null : (JSON.parse(JSON.stringify(result)) as unknown);
      this.finish(record, 'completed', settings);
    } catch (err) {
      record.attemptsMade = attempt;
      record.error = errorMessage(err);
      if (attempt < settings.attempts) {
        const wait = backoffDelay(settings.backoff, attempt);
        this.logger.warn(
          { err, job: record.name, job_id: record.id, attempt, retry_in_ms: wait },
          'job failed, retrying',
        );
        // While draining no timer is started: the retry would outlive the process (jobs here are not durable).
        if (this.stopped) record.state = 'delayed';
        else this.delay(record, wait);
      } else {
        this.logger.error({ err, job: record.name, job_id: record.id, attempt }, 'job failed');
        this.finish(record, 'failed', settings);
      }
    }
  }

  private finish(record: JobRecord, state: 'completed' | 'failed', settings: JobSettings<JobName>): void {
    record.state = state;
    record.finishedAt = new Date();
    if (state === 'completed') delete record.error;
    record.timer = setTimeout(() => this.jobs.delete(record.id), settings.keepCompletedMs ?? DEFAULT_KEEP_COMPLETED_MS);
    record.timer.unref();
  }
}
