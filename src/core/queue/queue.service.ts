import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { jobSettings, type JobName, type JobPayloads } from './job-catalogue.js';
import { QUEUE_DRIVER, type QueueDriver } from './queue-driver.js';
import { isFinished, type EnqueueOptions, type EnqueueResult, type JobView } from './job-view.js';

const POLL_MS = { 'in-process': 20, bullmq: 100 } as const;

/** Enqueue typed jobs and read their state; the same API over BullMQ (Redis) and the in-process driver. */
@Injectable()
export class QueueService {
  constructor(@Inject(QUEUE_DRIVER) private readonly driver: QueueDriver) {}

  get driverKind(): QueueDriver['kind'] {
    return this.driver.kind;
  }

  /**
   * The job id is `options.jobId`, else the table's idempotencyKey(payload), else a fresh UUID. Enqueuing an id that
   * still exists (waiting, active or kept after finishing) returns that job with `deduplicated: true`.
   */
  async enqueue<K extends JobName>(
    name: K,
    payload: JobPayloads[K],
    options: EnqueueOptions = {},
  ): Promise<EnqueueResult> {
    const settings = jobSettings(name);
    const jobId = options.jobId ?? settings.idempotencyKey?.(payload) ?? randomUUID();
    // BullMQ reserves ':' in ids and rejects pure integers for custom ids; keep both drivers equally strict.
    if (jobId.length === 0 || jobId.length > 200 || jobId.includes(':') || /^\d+$/.test(jobId)) {
      throw new Error(`invalid job id ${JSON.stringify(jobId)} for ${name}`);
    }
    return this.driver.enqueue(name, payload, { jobId, delayMs: options.delayMs });
  }

  getJob(id: string): Promise<JobView | null> {
    return this.driver.getJob(id);
  }

  /**
   * Resolves with the view once the job completed or failed, or with the current view when `timeoutMs` passes or
   * `signal` aborts.
   */
  async waitForCompletion(id: string, timeoutMs: number, signal?: AbortSignal): Promise<JobView> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const view = await this.driver.getJob(id);
      if (!view) throw new Error(`job ${id} not found`);
      if (isFinished(view)) return view;
      const left = deadline - Date.now();
      if (left <= 0 || signal?.aborted) return view;
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS[this.driver.kind], left)));
    }
  }
}
