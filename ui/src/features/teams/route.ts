import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';
import { readTeamsSearch } from './teams-search';

/** `/teams?tab=…&search=…&open=…`: teams and customers, their budgets and limits, and their virtual keys. */
export const teamsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'teams',
  validateSearch: readTeamsSearch,
  component: lazyRouteComponent(() => import('./teams-page'), 'TeamsPage'),
});
