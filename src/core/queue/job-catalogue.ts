/**
 * The one table of background jobs: every job's name, payload type, queue, retries, backoff, idempotency key and
 * schedule are declared here, so drivers, handlers and callers agree by construction. To add a job: an entry in JOBS,
 * its payload in JobPayloads (ids only, never secrets: payloads are stored in Redis) and its row in JOB_SETTINGS (the
 * mapped type makes a missing row a compile error), then exactly one `@JobHandler(name)` method on a provider
 * (start-up fails otherwise) and `QueueService.enqueue(name, payload)` where it is triggered.
 */

import type { StoredSecret } from '../secrets/secret-value.js';

/** BullMQ queue names (one worker per queue). */
export const QUEUES = {
  default: 'gateway',
  maintenance: 'gateway-maintenance',
  /** Async inference jobs: their own queue, so their concurrency (config `async_jobs`) is theirs alone. */
  async: 'gateway-async',
  /**
   * Calls to stdio MCP servers from `api` replicas, run where the children live (roles worker and all): their own
   * queue, so a slow tool never waits behind maintenance or deliveries, nor they behind it.
   */
  mcpStdio: 'gateway-mcp-stdio',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** Jobs of one queue run at most this many at a time per worker process. */
export const QUEUE_CONCURRENCY: { [Q in QueueName]: number } = {
  gateway: 5,
  'gateway-maintenance': 1,
  // The default; `async_jobs.concurrency` overrides it at worker start.
  'gateway-async': 10,
  // Each job mostly waits for a child process's answer; a caller waits for every one of them.
  'gateway-mcp-stdio': 50,
};

export const JOBS = {
  purgeExpired: 'maintenance.purge-expired',
  recoverJobs: 'maintenance.recover-jobs',
  agentsPushDeliver: 'agents.push-deliver',
  mcpFailPendingLogs: 'mcp.fail-pending-logs',
  accessProfilesPropagate: 'access-profiles.propagate',
  inferenceAsyncRun: 'inference.async-run',
  webhooksDeliver: 'webhooks.deliver',
  mcpStdioCall: 'mcp.stdio-call',
  mcpStdioControl: 'mcp.stdio-control',
} as const;
export type JobName = (typeof JOBS)[keyof typeof JOBS];

export interface JobPayloads {
  'maintenance.purge-expired': { reason?: string };
  /** Re-enqueue the jobs of rows still waiting for one (see JobRecoveryRegistry). */
  'maintenance.recover-jobs': { reason?: string };
  /** Re-deliver one stored push event (agent_push_events.id) to its client webhook. Ids only, never secrets. */
  'agents.push-deliver': { push_event_id: string };
  /** Fail MCP tool logs still `processing` after `mcp.pending_log_ttl`. */
  'mcp.fail-pending-logs': { reason?: string };
  /** Push an access profile's fields to its holders' copies (access_profile_propagations.id, also the job id). */
  'access-profiles.propagate': { propagation_id: string };
  /** Run one async inference job (async_jobs.id); the row holds the request and receives the result. */
  'inference.async-run': { job_id: string };
  /** Send one webhook delivery (webhook_deliveries.id) to its endpoint; the row records every attempt. */
  'webhooks.deliver': { delivery_id: string };
  /**
   * One tool call of a stdio MCP client, asked by an `api` replica (which spawns no child) and awaited by it. Carries
   * the call's arguments (kept in Redis for `keepCompletedMs`, as is the result); `deadline` (epoch ms) is when the
   * caller stops waiting: a job picked up later does not run.
   */
  'mcp.stdio-call': { client_id: string; tool: string; arguments: Record<string, unknown>; deadline: number };
  /**
   * A stdio client's connection check before a create or update is saved (`probe`: the unsaved `stdio_config`, its
   * envs sealed SecretValues, never plain text), or a tool list refresh of a saved one (`refresh`), asked by an
   * `api` replica.
   */
  'mcp.stdio-control':
    | { action: 'probe'; client_id: string; name: string; stdio_config: McpStdioConfigPayload }
    | { action: 'refresh'; client_id: string };
}

/** `stdio_config` as stored (envs are sealed SecretValues: ciphertext or a reference). */
export interface McpStdioConfigPayload {
  command: string;
  args: string[];
  envs: Record<string, StoredSecret>;
}

export interface JobBackoff {
  type: 'fixed' | 'exponential';
  /** Fixed: the delay between attempts. Exponential: delayMs * 2^(attempt - 1). */
  delayMs: number;
}

export interface JobSettings<K extends JobName> {
  queue: QueueName;
  /** Total attempts including the first run. */
  attempts: number;
  backoff: JobBackoff;
  /** Derives the job id from the payload: enqueuing the same id while that job exists returns the existing job. */
  idempotencyKey?: (payload: JobPayloads[K]) => string;
  /** Run on a schedule every this many milliseconds (workers only; a first run at start), with `repeatPayload`. */
  repeatEveryMs?: number;
  /** The payload of scheduled runs; required with repeatEveryMs. */
  repeatPayload?: JobPayloads[K];
  /** How long a finished (completed or failed) job stays readable by id. Default one hour. */
  keepCompletedMs?: number;
  /** Abort the attempt (signal) and fail it after this long. */
  timeoutMs?: number;
}

export const DEFAULT_KEEP_COMPLETED_MS = 60 * 60 * 1000;

export const JOB_SETTINGS: { [K in JobName]: JobSettings<K> } = {
  'maintenance.purge-expired': {
    queue: QUEUES.maintenance,
    attempts: 3,
    backoff: { type: 'exponential', delayMs: 1_000 },
    repeatEveryMs: 10 * 60 * 1000,
    repeatPayload: { reason: 'schedule' },
    keepCompletedMs: 60 * 60 * 1000,
    timeoutMs: 5 * 60 * 1000,
  },
  'maintenance.recover-jobs': {
    queue: QUEUES.maintenance,
    attempts: 2,
    backoff: { type: 'fixed', delayMs: 5_000 },
    // Also enqueued once at every worker start (QueueLifecycle).
    repeatEveryMs: 60 * 1000,
    repeatPayload: { reason: 'schedule' },
    keepCompletedMs: 10 * 60 * 1000,
    timeoutMs: 60_000,
  },
  'agents.push-deliver': {
    queue: QUEUES.default,
    attempts: 6,
    backoff: { type: 'exponential', delayMs: 500 },
    idempotencyKey: (payload) => `agents-push-${payload.push_event_id}`,
    keepCompletedMs: 60 * 60 * 1000,
    timeoutMs: 30_000,
  },
  'mcp.fail-pending-logs': {
    queue: QUEUES.maintenance,
    attempts: 2,
    backoff: { type: 'fixed', delayMs: 5_000 },
    repeatEveryMs: 60 * 1000,
    repeatPayload: { reason: 'schedule' },
    keepCompletedMs: 10 * 60 * 1000,
    timeoutMs: 60_000,
  },
  'access-profiles.propagate': {
    queue: QUEUES.default,
    // Per-user outcomes are stored with each user's change, so a retry only takes up the users not yet recorded.
    attempts: 3,
    backoff: { type: 'exponential', delayMs: 2_000 },
    idempotencyKey: (payload) => payload.propagation_id,
    keepCompletedMs: 24 * 60 * 60 * 1000,
    timeoutMs: 60 * 60 * 1000,
  },
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
  'mcp.stdio-call': {
    queue: QUEUES.mcpStdio,
    // A tool call is never replayed (tools are not idempotent); a failure is the caller's answer.
    attempts: 1,
    backoff: { type: 'fixed', delayMs: 0 },
    // The result is read by the waiting caller at once; it is not kept for anyone else.
    keepCompletedMs: 60_000,
    // The call has its own limit (the deadline); this one only catches a handler that hangs.
    timeoutMs: 61 * 60 * 1000,
  },
  'mcp.stdio-control': {
    queue: QUEUES.mcpStdio,
    attempts: 1,
    backoff: { type: 'fixed', delayMs: 0 },
    keepCompletedMs: 60_000,
    timeoutMs: 2 * 60 * 1000,
  },
};

/** The jobs that run on a schedule, with their interval and payload (checked at worker start). */
export function scheduledJobs(): Array<{ name: JobName; everyMs: number; payload: JobPayloads[JobName] }> {
  const scheduled: Array<{ name: JobName; everyMs: number; payload: JobPayloads[JobName] }> = [];
  for (const [name, settings] of Object.entries(JOB_SETTINGS) as Array<[JobName, JobSettings<JobName>]>) {
    if (!settings.repeatEveryMs) continue;
    if (!settings.repeatPayload) throw new Error(`job ${name} has repeatEveryMs but no repeatPayload`);
    scheduled.push({ name, everyMs: settings.repeatEveryMs, payload: settings.repeatPayload });
  }
  return scheduled;
}

export function jobSettings<K extends JobName>(name: K): JobSettings<K> {
  return JOB_SETTINGS[name];
}

/** The delay before attempt `attemptsMade + 1`, after `attemptsMade` failures. */
export function backoffDelay(backoff: JobBackoff, attemptsMade: number): number {
  if (backoff.type === 'fixed') return backoff.delayMs;
  return backoff.delayMs * 2 ** Math.max(0, attemptsMade - 1);
}
