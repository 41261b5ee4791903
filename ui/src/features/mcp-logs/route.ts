import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';
import { readMcpLogsSearch } from './mcp-logs-search';

/** `/mcp-logs?…`: the search is the list's query (mcp-logs-search.ts); the screen's code loads with the route. */
export const mcpLogsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'mcp-logs',
  validateSearch: readMcpLogsSearch,
  component: lazyRouteComponent(() => import('./mcp-logs-page'), 'McpLogsPage'),
});
