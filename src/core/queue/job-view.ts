import type { JobName } from './job-catalogue.js';

export const JOB_STATES = ['waiting', 'delayed', 'active', 'completed', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** The state of one job as callers (and later, HTTP responses) see it. Times RFC 3339 UTC. */
export interface JobView {
  id: string;
  name: JobName;
  state: JobState;
  progress: number | object;
  attempts_made: number;
  result?: unknown;
  error?: string;
  created_at: string;
  finished_at?: string;
}

export interface EnqueueOptions {
  /** Idempotency: the same id while that job exists returns the existing job. */
  jobId?: string;
  delayMs?: number;
}

export interface EnqueueResult {
  id: string;
  deduplicated: boolean;
}

export function isFinished(view: JobView): boolean {
  return view.state === 'completed' || view.state === 'failed';
}
