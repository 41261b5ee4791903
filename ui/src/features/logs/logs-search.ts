import { listLogsQuery, type ObjectConstraints } from '../../api/constraints.gen';
import { PERIODS, type Period } from '../../shared/time/ranges';
import { compactSearch, readSearch } from '../../shared/url/search-params';
import type { LogsQuery } from './live-filter';

/**
 * The logs screen's URL: every parameter of `GET /api/logs` under its own name (a link is the API query), and the
 * screen's own: a relative time range (`period`), live mode (`live`) and the open log (`log`).
 */
export const LOGS_SEARCH: ObjectConstraints = {
  required: [],
  properties: {
    ...listLogsQuery.properties,
    period: { type: 'string', enum: Object.keys(PERIODS) },
    live: { type: 'boolean' },
    log: { type: 'string' },
  },
};

export type LogsSearch = LogsQuery & { period?: Period; live?: boolean; log?: string };

/** The API's defaults: left out of the URL. */
export const LOGS_DEFAULTS = { limit: 50, offset: 0, sort_by: 'timestamp', order: 'desc' } as const;

/** The route's `validateSearch`: the URL's values typed, the rest dropped. */
export function readLogsSearch(raw: Record<string, unknown>): LogsSearch {
  return readSearch(raw, LOGS_SEARCH);
}

/** What goes into the URL for a view: blanks and defaults left out. */
export function logsSearchOf(search: LogsSearch): LogsSearch {
  return compactSearch(search, LOGS_DEFAULTS);
}

/** The API query of a view, its `period` made absolute against `now` (an explicit `start_time` wins). */
export function logsQueryOf(
  search: LogsSearch,
  now: number,
): Required<Pick<LogsQuery, 'limit' | 'offset' | 'sort_by' | 'order'>> & LogsQuery {
  const { period, live: _live, log: _log, ...query } = search;
  if (period && !query.start_time) query.start_time = new Date(now - PERIODS[period]).toISOString();
  return { ...LOGS_DEFAULTS, ...query };
}

/** Whether new rows belong at the top of this view: the first page, newest first. */
export function showsNewestFirst(query: LogsQuery): boolean {
  return (
    (query.offset ?? 0) === 0 && (query.sort_by ?? 'timestamp') === 'timestamp' && (query.order ?? 'desc') === 'desc'
  );
}
