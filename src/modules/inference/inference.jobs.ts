import { defineJobs, QUEUES } from '../../core/queue/job-catalogue.js';

declare module '../../core/queue/job-catalogue.js' {
  interface JobPayloads {
    /** Run one async inference job (async_jobs.id); the row holds the request and receives the result. */
    'inference.async-run': { job_id: string };
  }
}

/** The inference module's background jobs (see src/core/queue/job-catalogue.ts). */
export const INFERENCE_JOBS = {
  asyncRun: 'inference.async-run',
} as const;

export const INFERENCE_JOB_SETTINGS = defineJobs({
  'inference.async-run': {
    queue: QUEUES.async,
    // Inference failures are the job's result (a failed job row), not a queue failure: only infrastructure errors
    // (the database unreachable) throw and are retried. A job already sent to the provider is never re-sent.
    attempts: 5,
    backoff: { type: 'exponential', delayMs: 1_000 },
    idempotencyKey: (payload) => `async-${payload.job_id}`,
    keepCompletedMs: 10 * 60 * 1000,
    // The inference call has its own limit (async_jobs.job_timeout); this one only catches a handler that hangs.
    timeoutMs: 24 * 60 * 60 * 1000,
  },
});
