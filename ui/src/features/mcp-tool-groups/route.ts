import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';

/** `/mcp-tool-groups`: named sets of MCP tools that access profiles grant. */
export const mcpToolGroupsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'mcp-tool-groups',
  component: lazyRouteComponent(() => import('./tool-groups-page'), 'ToolGroupsPage'),
});
