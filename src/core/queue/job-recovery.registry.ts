import { Injectable } from '@nestjs/common';
import { jobSettings, type JobName, type JobPayloads } from './job-catalogue.js';

/** Rows younger than this are left alone: their job is most likely waiting or running. */
export const DEFAULT_RECOVERY_GRACE_MS = 60_000;

/**
 * A job whose state lives in database rows (a `pending` push event, an async inference request, a propagation):
 * when the queue lost the job (the in-process queue on restart, a flushed Redis), the rows still say it is due.
 */
export interface RecoverableJob<K extends JobName = JobName> {
  job: K;
  /**
   * The payloads of the jobs rows are waiting for: rows in a waiting state created more than `olderThanMs` ago, oldest
   * first, at most `limit`. Returning a row whose job still exists is harmless (enqueue is idempotent by job id).
   */
  findOrphans(olderThanMs: number, limit: number): Promise<Array<JobPayloads[K]>>;
  /** Default DEFAULT_RECOVERY_GRACE_MS. */
  graceMs?: number;
}

/** Modules register their state-bearing jobs here (constructor or onModuleInit); `maintenance.recover-jobs` sweeps them. */
@Injectable()
export class JobRecoveryRegistry {
  private readonly jobs = new Map<JobName, RecoverableJob>();

  register<K extends JobName>(entry: RecoverableJob<K>): void {
    // Without a stable job id a re-enqueue would run a job twice when the original still exists.
    if (!jobSettings(entry.job).idempotencyKey) {
      throw new Error(`job ${entry.job} has no idempotencyKey in its settings: it cannot be recovered safely`);
    }
    if (entry.graceMs !== undefined && !(entry.graceMs >= 0)) throw new Error(`job ${entry.job}: graceMs must be >= 0`);
    if (this.jobs.has(entry.job)) throw new Error(`job ${entry.job} is already registered for recovery`);
    this.jobs.set(entry.job, entry);
  }

  unregister(job: JobName): boolean {
    return this.jobs.delete(job);
  }

  list(): RecoverableJob[] {
    return [...this.jobs.values()];
  }
}
