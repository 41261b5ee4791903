import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../logging/logging.module.js';
import { JOBS, type JobPayloads } from './job-catalogue.js';
import { JobHandler, type JobContext } from './job-handler.decorator.js';
import { DEFAULT_RECOVERY_GRACE_MS, JobRecoveryRegistry } from './job-recovery.registry.js';
import { QueueService } from './queue.service.js';

/** Rows looked at per job and run; a bigger backlog is taken up by the next runs. */
export const RECOVERY_BATCH_SIZE = 1000;

export interface RecoveryResult {
  /** Rows waiting for a job, by job name. */
  found: Record<string, number>;
  /** Of those, jobs that did not exist and were enqueued again. */
  requeued: Record<string, number>;
}

/** The `maintenance.recover-jobs` job: re-enqueues the jobs of rows still waiting for one. */
@Injectable()
export class JobRecoveryService {
  constructor(
    private readonly registry: JobRecoveryRegistry,
    private readonly queue: QueueService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @JobHandler(JOBS.recoverJobs)
  async recoverJobs(payload: JobPayloads['maintenance.recover-jobs'], context: JobContext): Promise<RecoveryResult> {
    const found: Record<string, number> = {};
    const requeued: Record<string, number> = {};
    const failures: string[] = [];
    for (const entry of this.registry.list()) {
      context.signal?.throwIfAborted();
      try {
        const payloads = await entry.findOrphans(entry.graceMs ?? DEFAULT_RECOVERY_GRACE_MS, RECOVERY_BATCH_SIZE);
        found[entry.job] = payloads.length;
        requeued[entry.job] = 0;
        for (const jobPayload of payloads) {
          context.signal?.throwIfAborted();
          // The job id comes from the catalogue's idempotencyKey: a job that still exists is left as it is.
          const { deduplicated } = await this.queue.enqueue(entry.job, jobPayload);
          if (!deduplicated) requeued[entry.job]! += 1;
        }
      } catch (err) {
        failures.push(`${entry.job}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const fields = { job_id: context.jobId, reason: payload.reason, found, requeued, failures };
    const lost = Object.values(requeued).some((n) => n > 0);
    // Every minute on every worker: quiet unless jobs were actually lost.
    this.logger[failures.length > 0 ? 'warn' : lost ? 'info' : 'debug'](fields, 'recovered lost jobs');
    if (failures.length > 0) throw new Error(`job recovery failed for ${failures.join('; ')}`);
    return { found, requeued };
  }
}
