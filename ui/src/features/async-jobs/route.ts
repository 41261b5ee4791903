import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';
import { readAsyncJobsSearch } from './async-job-helpers';

/** `/async-jobs?status=…&type=…`: the async inference jobs, the URL being `GET /api/async-jobs`'s query. */
export const asyncJobsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'async-jobs',
  validateSearch: readAsyncJobsSearch,
  component: lazyRouteComponent(() => import('./async-jobs-page'), 'AsyncJobsPage'),
});
