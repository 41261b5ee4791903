import { Inject, Injectable, type Type } from '@nestjs/common';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job, JobsOptions, Queue, WorkerOptions } from 'bullmq';
import type { Logger } from 'pino';
import { withTimeout } from '../clock/with-timeout.js';
import {
  DEFAULT_KEEP_COMPLETED_MS,
  jobSettings,
  QUEUE_CONCURRENCY,
  scheduledJobs,
  type JobName,
  type JobPayloads,
  type JobSettings,
  type QueueName,
} from './job-catalogue.js';
import { JobHandlerRegistry } from './job-handler.registry.js';
import { errorMessage, runJobAttempt } from './job-runner.js';
import type { QueueDepth, QueueDriver } from './queue-driver.js';
import type { EnqueueResult, JobState, JobView } from './job-view.js';

/** BullMQ options of a job from its settings row (retries, backoff, how long finished jobs stay readable). */
function jobOptions(settings: JobSettings<JobName>): Omit<JobsOptions, 'jobId' | 'delay'> {
  const keepSeconds = Math.ceil((settings.keepCompletedMs ?? DEFAULT_KEEP_COMPLETED_MS) / 1000);
  return {
    attempts: settings.attempts,
    backoff: { type: settings.backoff.type, delay: settings.backoff.delayMs },
    removeOnComplete: { age: keepSeconds },
    removeOnFail: { age: keepSeconds },
  };
}

const STATES: Record<string, JobState> = {
  waiting: 'waiting',
  prioritized: 'waiting',
  'waiting-children': 'waiting',
  delayed: 'delayed',
  active: 'active',
  completed: 'completed',
  failed: 'failed',
};

/**
 * How long a worker's lock on a running job lasts (renewed every half of it) and how often the stalled-job check
 * runs: a job whose worker died goes back to the queue after about one to two times these. BullMQ's default is 30 s.
 */
export type StalledJobOptions = Pick<WorkerOptions, 'lockDuration' | 'stalledInterval'>;

/** One `@Processor` class per queue: a WorkerHost dispatching by job name to the handler registry. */
export function processorFor(
  queue: QueueName,
  concurrency = QUEUE_CONCURRENCY[queue],
  stalled: StalledJobOptions = {},
): Type<WorkerHost> {
  // autorun off: workers start in onApplicationBootstrap, after the handler registry passed its start-up check.
  @Processor(queue, { autorun: false, concurrency, ...stalled })
  @Injectable()
  class QueueProcessor extends WorkerHost {
    constructor(@Inject(JobHandlerRegistry) private readonly registry: JobHandlerRegistry) {
      super();
    }

    process(job: Job): Promise<unknown> {
      return runJobAttempt(this.registry, job.name, job.data, {
        jobId: job.id ?? '',
        attempt: job.attemptsMade + 1,
        updateProgress: (progress) => job.updateProgress(progress),
      });
    }
  }
  Object.defineProperty(QueueProcessor, 'name', { value: `QueueProcessor(${queue})` });
  return QueueProcessor;
}

/** The Redis mode: durable BullMQ queues under `redis_prefix`, shared by every replica. */
export class BullMqQueueDriver implements QueueDriver {
  readonly kind = 'bullmq' as const;

  constructor(
    private readonly queues: Map<QueueName, Queue>,
    /** Empty in the `api` role: that process only enqueues. */
    private readonly processors: WorkerHost[],
    private readonly logger: Logger,
    /** Caps on the jobs all workers of a queue run at once (BullMQ global concurrency, kept in Redis). */
    private readonly globalConcurrency: Partial<Record<QueueName, number>> = {},
  ) {
    // An EventEmitter without an 'error' listener throws; connection trouble must be logged, not crash the process.
    for (const queue of queues.values()) {
      queue.on('error', (err) => this.logger.error({ err, queue: queue.name }, 'queue connection error'));
    }
  }

  async enqueue<K extends JobName>(
    name: K,
    payload: JobPayloads[K],
    options: { jobId: string; delayMs?: number },
  ): Promise<EnqueueResult> {
    const settings = jobSettings<JobName>(name);
    const queue = this.queue(settings.queue);
    // BullMQ itself ignores an add with an existing id; the look-up only tells the caller it was a duplicate.
    if (await queue.getJob(options.jobId)) return { id: options.jobId, deduplicated: true };
    const job = await queue.add(name, payload, {
      ...jobOptions(settings),
      jobId: options.jobId,
      ...(options.delayMs && options.delayMs > 0 ? { delay: options.delayMs } : {}),
    });
    return { id: job.id ?? options.jobId, deduplicated: false };
  }

  async getJob(id: string): Promise<JobView | null> {
    for (const queue of this.queues.values()) {
      // The state first, then the job: read the other way round, a job finishing in between looks completed with
      // the return value of before (null).
      const current = await queue.getJobState(id);
      if (current === 'unknown') continue;
      const job = (await queue.getJob(id)) as Job | undefined;
      if (!job) continue;
      const state = STATES[current] ?? 'waiting';
      const progress = typeof job.progress === 'number' || typeof job.progress === 'object' ? job.progress : 0;
      return {
        id,
        name: job.name as JobName,
        state,
        progress,
        // BullMQ counts an attempt on completion and on failure alike.
        attempts_made: job.attemptsMade,
        ...(state === 'completed' ? { result: job.returnvalue as unknown } : {}),
        ...(job.failedReason && state !== 'completed' ? { error: job.failedReason } : {}),
        created_at: new Date(job.timestamp).toISOString(),
        ...(job.finishedOn && (state === 'completed' || state === 'failed')
          ? { finished_at: new Date(job.finishedOn).toISOString() }
          : {}),
      };
    }
    return null;
  }

  /** One Redis round trip per queue. */
  jobCounts(): Promise<QueueDepth[]> {
    return Promise.all(
      [...this.queues.entries()].map(async ([name, queue]) => {
        const counts = await queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active');
        return {
          queue: name,
          waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
          delayed: counts.delayed ?? 0,
          active: counts.active ?? 0,
        };
      }),
    );
  }

  async startWorkers(): Promise<void> {
    for (const processor of this.processors) {
      const worker = processor.worker;
      worker.on('error', (err) => this.logger.error({ err, queue: worker.name }, 'worker error'));
      worker.on('failed', (job, err) => {
        const context = { err, job: job?.name, job_id: job?.id, attempt: job?.attemptsMade };
        if (job && job.attemptsMade < (job.opts.attempts ?? 1)) this.logger.warn(context, 'job failed, retrying');
        else this.logger.error(context, 'job failed');
      });
      worker.run().catch((err: unknown) => this.logger.error({ err: errorMessage(err) }, 'worker stopped'));
    }
    // Schedules live in Redis: upserting is idempotent across replicas and restarts.
    if (this.processors.length === 0) return;
    for (const [name, cap] of Object.entries(this.globalConcurrency) as Array<[QueueName, number]>) {
      if (cap > 0) await this.queue(name).setGlobalConcurrency(cap);
      else await this.queue(name).removeGlobalConcurrency();
    }
    for (const { name, everyMs, payload } of scheduledJobs()) {
      const settings = jobSettings<JobName>(name);
      await this.queue(settings.queue).upsertJobScheduler(
        name,
        { every: everyMs },
        { name, data: payload, opts: jobOptions(settings) },
      );
    }
  }

  async drain(): Promise<void> {
    // close() without force waits for the active jobs of each worker, then releases its connections (QUIT). With Redis
    // gone neither can happen: a job cannot be marked done and QUIT waits for a server that may not return. Then
    // workers close at once (their jobs' locks lapse and another worker takes them, as after a crash) and the
    // connections are dropped.
    const connected = await this.redisConnected();
    await Promise.all(this.processors.map((processor) => processor.worker.close(!connected)));
    await Promise.all(
      [...this.queues.values()].map(async (queue) => {
        // Forced: a plain disconnect of a reconnecting ioredis client never emits the 'end' it would wait for.
        if (!connected) await queue.backend.close(true).catch(() => undefined);
        await queue.close();
      }),
    );
  }

  /** Whether the queues' connection to Redis is up right now. */
  private async redisConnected(): Promise<boolean> {
    const queue = this.queues.values().next().value;
    if (!queue) return true;
    const client = await withTimeout(queue.backend.client, 500, 'redis client').catch(() => undefined);
    return client?.status === 'ready';
  }

  private queue(name: QueueName): Queue {
    const queue = this.queues.get(name);
    if (!queue) throw new Error(`queue ${name} is not registered`);
    return queue;
  }
}
