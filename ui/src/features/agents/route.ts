import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';
import { readAgentsSearch } from './agents-search';

/** `/agents?agent_names=…&entry=…`: the registered A2A agents, their push configurations and history (agents-search.ts). */
export const agentsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'agents',
  validateSearch: readAgentsSearch,
  component: lazyRouteComponent(() => import('./agents-page'), 'AgentsPage'),
});
