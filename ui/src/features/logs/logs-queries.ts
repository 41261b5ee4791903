import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { authStatusQuery } from '../../shell/session/session';
import type { LogsQuery } from './live-filter';
import { logsQueryOf, type LogsSearch } from './logs-search';

/** The filters of a list query: what `GET /api/logs/stats` takes (no page, sort or count bound). */
export function filtersOf(query: LogsQuery) {
  const { limit: _limit, offset: _offset, sort_by: _sort, order: _order, count_limit: _count, ...filters } = query;
  return filters;
}

/**
 * The rows of a view. They come first: the list counts only its own page (`count_limit: 0`), and the exact count and
 * stats are `logStatsQuery`, a request beside it, so adding up every match of a filter (a provider's: 0.2–0.9 s at
 * 1M rows) never holds the rows back. A content search keeps the list's own count (to 1,000 past the page): its exact
 * stats read every match.
 */
export const logsListQuery = (query: LogsQuery) =>
  queryOptions({
    queryKey: ['logs', 'list', query],
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/logs', {
          params: { query: query.content_search ? query : { ...query, count_limit: 0 } },
          signal,
        }),
      ),
  });

/** The exact count and stats of a view's filters (not asked with a content search: see `logsListQuery`). */
export const logStatsQuery = (filters: ReturnType<typeof filtersOf>) =>
  queryOptions({
    queryKey: ['logs', 'stats', filters],
    queryFn: ({ signal }) => call(api.GET('/api/logs/stats', { params: { query: filters }, signal })),
  });

/** The pickers' values. */
export const logFilterDataQuery = queryOptions({
  queryKey: ['logs', 'filterdata'],
  queryFn: ({ signal }) => call(api.GET('/api/logs/filterdata', { signal })),
  staleTime: 60_000,
});

/**
 * Asks a view's rows, stats and pickers as soon as the session is known, while the screen's code loads and the
 * caller's permissions are read (the route's loader; the screen then finds them in the cache). A relative period is
 * left to the screen: its start is the screen's own "now".
 */
export async function prefetchLogs(queryClient: QueryClient, search: LogsSearch): Promise<void> {
  if (search.period) return;
  const status = await queryClient.ensureQueryData(authStatusQuery).catch(() => undefined);
  if (!status?.has_valid_token) return;
  const query = logsQueryOf(search, Date.now());
  void queryClient.prefetchQuery(logsListQuery(query));
  if (!query.content_search) void queryClient.prefetchQuery(logStatsQuery(filtersOf(query)));
  void queryClient.prefetchQuery(logFilterDataQuery);
}
