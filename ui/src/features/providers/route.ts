import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';

export const providersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'providers',
  component: lazyRouteComponent(() => import('./providers-page'), 'ProvidersPage'),
});
