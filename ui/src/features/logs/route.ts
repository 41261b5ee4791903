import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';
import { prefetchLogs } from './logs-queries';
import { readLogsSearch } from './logs-search';

/**
 * `/logs?…`: the search is the list's query (logs-search.ts); the screen's code loads with the route, and its rows are
 * asked beside it (`prefetchLogs`, not awaited: the loader never holds the screen).
 */
export const logsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'logs',
  validateSearch: readLogsSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void prefetchLogs(context.queryClient, deps),
  component: lazyRouteComponent(() => import('./logs-page'), 'LogsPage'),
});
