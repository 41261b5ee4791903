import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';
import { readOverviewSearch } from './overview-search';

/** `/?period=…`: the range and grouping are in the URL (overview-search.ts); the screen's code loads with the route. */
export const overviewRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  validateSearch: readOverviewSearch,
  component: lazyRouteComponent(() => import('./overview-page'), 'OverviewPage'),
});
