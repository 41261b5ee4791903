import { defineJobs, QUEUES } from '../../core/queue/job-catalogue.js';

declare module '../../core/queue/job-catalogue.js' {
  interface JobPayloads {
    /** Push an access profile's fields to its holders' copies (access_profile_propagations.id, also the job id). */
    'access-profiles.propagate': { propagation_id: string };
  }
}

/** The access profiles module's background jobs (see src/core/queue/job-catalogue.ts). */
export const ACCESS_PROFILE_JOBS = {
  propagate: 'access-profiles.propagate',
} as const;

export const ACCESS_PROFILE_JOB_SETTINGS = defineJobs({
  'access-profiles.propagate': {
    queue: QUEUES.default,
    // Per-user outcomes are stored with each user's change, so a retry only takes up the users not yet recorded.
    attempts: 3,
    backoff: { type: 'exponential', delayMs: 2_000 },
    idempotencyKey: (payload) => payload.propagation_id,
    keepCompletedMs: 24 * 60 * 60 * 1000,
    timeoutMs: 60 * 60 * 1000,
  },
});
