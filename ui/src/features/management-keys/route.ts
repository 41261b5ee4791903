import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';

/** `/management-keys`: management API keys for scripts and CI, with their scopes; a key's value is shown once. */
export const managementKeysRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'management-keys',
  component: lazyRouteComponent(() => import('./management-keys-page'), 'ManagementKeysPage'),
});
