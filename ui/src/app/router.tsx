import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { logsRoute } from '../features/logs/route';
import { mcpLogsRoute } from '../features/mcp-logs/route';
import { overviewRoute } from '../features/overview/route';
import { providersRoute } from '../features/providers/route';
import { routingRulesRoute } from '../features/routing-rules/route';
import { virtualKeysRoute } from '../features/virtual-keys/route';
import { mcpClientsRoute } from '../features/mcp-clients/route';
import { mcpToolGroupsRoute } from '../features/mcp-tool-groups/route';
import { circuitBreakersRoute } from '../features/circuit-breakers/route';
import { settingsRoute } from '../features/settings/route';
import { auditLogsRoute } from '../features/audit-logs/route';
import { webhooksRoute } from '../features/webhooks/route';
import { asyncJobsRoute } from '../features/async-jobs/route';
import { teamsRoute } from '../features/teams/route';
import { accessProfilesRoute } from '../features/access-profiles/route';
import { agentsRoute } from '../features/agents/route';
import { usersRoute } from '../features/users/route';
import { managementKeysRoute } from '../features/management-keys/route';
import { modelsRoute } from '../features/models/route';
import { parseSearchString, stringifySearchObject } from '../shared/url/search-params';
import { rootRoute } from './root-route';

/** Every screen. A new screen adds its route here and its entry in navigation.ts (docs/dashboard.md). */
const routeTree = rootRoute.addChildren([
  overviewRoute,
  logsRoute,
  mcpLogsRoute,
  providersRoute,
  virtualKeysRoute,
  routingRulesRoute,
  mcpClientsRoute,
  mcpToolGroupsRoute,
  circuitBreakersRoute,
  settingsRoute,
  auditLogsRoute,
  webhooksRoute,
  asyncJobsRoute,
  teamsRoute,
  accessProfilesRoute,
  agentsRoute,
  usersRoute,
  managementKeysRoute,
  modelsRoute,
]);

/**
 * The router's base is where the page is served from (`/ui`, or `/gateway/ui` behind a proxy): the gateway writes the
 * page's `<base>`, so nothing is configured here.
 */
export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    basepath: new URL(document.baseURI).pathname.replace(/\/$/, ''),
    context: { queryClient },
    parseSearch: parseSearchString,
    stringifySearch: stringifySearchObject,
    defaultPreload: 'intent',
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
