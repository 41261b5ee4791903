import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';
import { readUsersSearch } from './users-search';

/** `/users?tab=…&search=…&role=…` (enterprise): dashboard users, and the roles that grant their permissions. */
export const usersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'users',
  validateSearch: readUsersSearch,
  component: lazyRouteComponent(() => import('./users-page'), 'UsersPage'),
});
