import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';

/** `/mcp-clients`: the MCP servers the gateway connects to, their tools, and the call panel. */
export const mcpClientsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'mcp-clients',
  component: lazyRouteComponent(() => import('./mcp-clients-page'), 'McpClientsPage'),
});
