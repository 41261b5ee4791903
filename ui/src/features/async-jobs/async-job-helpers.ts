import { listAsyncJobsQuery, type ObjectConstraints } from '../../api/constraints.gen';
import type { QueryOf, Schema } from '../../api/schemas';
import { formatLatency } from '../../shared/format/format';
import { compactSearch, readSearch } from '../../shared/url/search-params';

export type AsyncJob = Schema<'AsyncJobSummary'>;
export type AsyncJobStatus = AsyncJob['status'];
export type AsyncJobsQuery = QueryOf<'listAsyncJobs'>;

/** The statuses in the order a job goes through them, each with its label and a filled badge colour (WCAG AA). */
export const ASYNC_JOB_STATUS: Record<AsyncJobStatus, { label: string; color: string }> = {
  pending: { label: 'pending', color: 'gray.7' },
  processing: { label: 'processing', color: 'blue.9' },
  completed: { label: 'completed', color: '#1e6b30' },
  failed: { label: 'failed', color: 'red.9' },
};

export const ASYNC_JOB_STATUSES = Object.keys(ASYNC_JOB_STATUS) as AsyncJobStatus[];

/** The async types of `/v1/async/<type>` (docs/async.md), offered in the type filter; provider routes are typed. */
export const ASYNC_TYPES = [
  'chat/completions',
  'completions',
  'responses',
  'embeddings',
  'rerank',
  'ocr',
  'images/generations',
  'images/edits',
  'images/variations',
  'audio/speech',
  'audio/transcriptions',
];

/** The screen's URL: `GET /api/async-jobs`'s query under its own names. */
export const ASYNC_JOBS_SEARCH: ObjectConstraints = listAsyncJobsQuery;

/** The API's defaults: left out of the URL. */
export const ASYNC_JOBS_DEFAULTS = { limit: 50, offset: 0 } as const;

/** The route's `validateSearch`. */
export function readAsyncJobsSearch(raw: Record<string, unknown>): AsyncJobsQuery {
  return readSearch(raw, ASYNC_JOBS_SEARCH);
}

/** What goes into the URL: blanks and defaults left out. */
export function asyncJobsSearchOf(search: AsyncJobsQuery): AsyncJobsQuery {
  return compactSearch(search, ASYNC_JOBS_DEFAULTS);
}

/** The list's API query, defaults filled. */
export function asyncJobsQueryOf(
  search: AsyncJobsQuery,
): Required<Pick<AsyncJobsQuery, 'limit' | 'offset'>> & AsyncJobsQuery {
  return { ...ASYNC_JOBS_DEFAULTS, ...search };
}

/** Whether a job may still change (the list is read again while one does). */
export function unfinished(job: Pick<AsyncJob, 'status'>): boolean {
  return job.status === 'pending' || job.status === 'processing';
}

/**
 * A failed job's error as a person reads it: the GatewayError's message with its type (`Model not found
 * (invalid_request_error)`), or the stored body as JSON when it is not one (a provider's own error body).
 */
export function jobErrorText(error: unknown): string {
  if (error === undefined || error === null) return '';
  if (typeof error === 'object') {
    const inner = (error as { error?: unknown }).error;
    if (inner && typeof inner === 'object') {
      const { message, type } = inner as { message?: unknown; type?: unknown };
      if (typeof message === 'string' && message)
        return typeof type === 'string' && type ? `${message} (${type})` : message;
    }
    if (typeof inner === 'string' && inner) return inner;
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
  }
  return typeof error === 'string' ? error : JSON.stringify(error);
}

/** How long a finished job ran (start to completion), or '' while it has not both. */
export function runTime(job: Pick<AsyncJob, 'started_at' | 'completed_at'>): string {
  if (!job.started_at || !job.completed_at) return '';
  const ms = Date.parse(job.completed_at) - Date.parse(job.started_at);
  return Number.isFinite(ms) && ms >= 0 ? formatLatency(ms) : '';
}

/** The status badge's text: the status, with the HTTP status of the answer once finished (`failed 404`). */
export function statusText(job: Pick<AsyncJob, 'status' | 'status_code'>): string {
  const label = ASYNC_JOB_STATUS[job.status].label;
  return !unfinished(job) && job.status_code ? `${label} ${job.status_code}` : label;
}
