/**
 * The job catalogue: the queues, and every job's name, payload type, queue, retries, backoff, idempotency key and
 * schedule, so drivers, handlers and callers agree by construction. The core defines its maintenance jobs here; a
 * module defines its own in `<module>.jobs.ts`. To add a job: its payload in JobPayloads (ids only, never secrets:
 * payloads are stored in Redis; a module augments the interface) and its row in a `defineJobs` table (the mapped type
 * makes a missing row a compile error), then exactly one `@JobHandler(name)` method on a provider (start-up fails
 * otherwise) and `QueueService.enqueue(name, payload)` where it is triggered.
 */

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

/** The core's own jobs (maintenance); each module declares its jobs in its `<module>.jobs.ts`. */
export const JOBS = {
  purgeExpired: 'maintenance.purge-expired',
  recoverJobs: 'maintenance.recover-jobs',
} as const;

/**
 * Every job's payload by job name. The core declares its own; a module adds its jobs by augmenting this interface in
 * its `<module>.jobs.ts` (`declare module '…/core/queue/job-catalogue.js' { interface JobPayloads { … } }`) and
 * registering their settings there with `defineJobs`.
 */
export interface JobPayloads {
  'maintenance.purge-expired': { reason?: string };
  /** Re-enqueue the jobs of rows still waiting for one (see JobRecoveryRegistry). */
  'maintenance.recover-jobs': { reason?: string };
}
export type JobName = keyof JobPayloads;

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

const SETTINGS = new Map<JobName, JobSettings<JobName>>();

/**
 * Registers jobs' settings (the core's below; a module's in its `<module>.jobs.ts`, when that file is first imported)
 * and returns them typed. A name registered twice is an error: two owners of one job.
 */
export function defineJobs<K extends JobName>(settings: { [P in K]: JobSettings<P> }): {
  readonly [P in K]: JobSettings<P>;
} {
  for (const [name, row] of Object.entries(settings) as Array<[JobName, JobSettings<JobName>]>) {
    const existing = SETTINGS.get(name);
    if (existing && existing !== row) throw new Error(`job ${name} is defined twice`);
    SETTINGS.set(name, row);
  }
  return settings;
}

/** The settings of a registered job; throws for a job no imported module defines. */
export function jobSettings<K extends JobName>(name: K): JobSettings<K> {
  const settings = SETTINGS.get(name);
  if (!settings) throw new Error(`no such job ${name}: not defined by any loaded module`);
  return settings as unknown as JobSettings<K>;
}

/** The settings of `name`, or undefined when no loaded module defines it. */
export function findJobSettings(name: string): JobSettings<JobName> | undefined {
  return SETTINGS.get(name as JobName);
}

/** Every registered job's name. */
export function jobNames(): JobName[] {
  return [...SETTINGS.keys()];
}

export const MAINTENANCE_JOB_SETTINGS = defineJobs({
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
});

/** The jobs that run on a schedule, with their interval and payload (checked at worker start). */
export function scheduledJobs(): Array<{ name: JobName; everyMs: number; payload: JobPayloads[JobName] }> {
  const scheduled: Array<{ name: JobName; everyMs: number; payload: JobPayloads[JobName] }> = [];
  for (const [name, settings] of SETTINGS) {
    if (!settings.repeatEveryMs) continue;
    if (!settings.repeatPayload) throw new Error(`job ${name} has repeatEveryMs but no repeatPayload`);
    scheduled.push({ name, everyMs: settings.repeatEveryMs, payload: settings.repeatPayload });
  }
  return scheduled;
}

/** The delay before attempt `attemptsMade + 1`, after `attemptsMade` failures. */
export function backoffDelay(backoff: JobBackoff, attemptsMade: number): number {
  if (backoff.type === 'fixed') return backoff.delayMs;
  return backoff.delayMs * 2 ** Math.max(0, attemptsMade - 1);
}
