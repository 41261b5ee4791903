import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';

export const routingRulesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'routing-rules',
  component: lazyRouteComponent(() => import('./routing-rules-page'), 'RoutingRulesPage'),
});
