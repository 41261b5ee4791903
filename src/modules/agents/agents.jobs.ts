import { defineJobs, QUEUES } from '../../core/queue/job-catalogue.js';

declare module '../../core/queue/job-catalogue.js' {
  interface JobPayloads {
    /** Re-deliver one stored push event (agent_push_events.id) to its client webhook. Ids only, never secrets. */
    'agents.push-deliver': { push_event_id: string };
  }
}

/** The agents module's background jobs (see src/core/queue/job-catalogue.ts). */
export const AGENT_JOBS = {
  pushDeliver: 'agents.push-deliver',
} as const;

export const AGENT_JOB_SETTINGS = defineJobs({
  'agents.push-deliver': {
    queue: QUEUES.default,
    attempts: 6,
    backoff: { type: 'exponential', delayMs: 500 },
    idempotencyKey: (payload) => `agents-push-${payload.push_event_id}`,
    keepCompletedMs: 60 * 60 * 1000,
    timeoutMs: 30_000,
  },
});
