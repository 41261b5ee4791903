import { defineJobs, QUEUES } from '../../core/queue/job-catalogue.js';

declare module '../../core/queue/job-catalogue.js' {
  interface JobPayloads {
    /** Send one webhook delivery (webhook_deliveries.id) to its endpoint; the row records every attempt. */
    'webhooks.deliver': { delivery_id: string };
  }
}

/** The webhooks module's background jobs (see src/core/queue/job-catalogue.ts). */
export const WEBHOOK_JOBS = {
  deliver: 'webhooks.deliver',
} as const;

export const WEBHOOK_JOB_SETTINGS = defineJobs({
  'webhooks.deliver': {
    queue: QUEUES.default,
    // One run is one attempt, recorded on the delivery row; a failed attempt enqueues the next itself, delayed, with
    // its own job id (`webhook-delivery-<id>-<n>`; webhooks.max_attempts, doubling from retry_backoff_initial), so the
    // queue's own retries only cover infrastructure errors. The row's claim keeps duplicate runs from sending twice.
    attempts: 3,
    backoff: { type: 'exponential', delayMs: 1_000 },
    idempotencyKey: (payload) => `webhook-delivery-${payload.delivery_id}`,
    // Short: the recovery sweep re-enqueues a lost delivery under this id, which a kept finished job would block.
    keepCompletedMs: 60 * 1000,
    timeoutMs: 5 * 60 * 1000,
  },
});
