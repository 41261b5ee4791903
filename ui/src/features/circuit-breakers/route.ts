import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';

/** `/circuit-breakers` (enterprise): policies, the circuits open now, and closing one by hand. */
export const circuitBreakersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'circuit-breakers',
  component: lazyRouteComponent(() => import('./circuit-breakers-page'), 'CircuitBreakersPage'),
});
