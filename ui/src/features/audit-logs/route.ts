import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';
import { readAuditSearch } from './audit-helpers';

/** `/audit-logs?…`: the search is `GET /api/audit-logs`'s query (actor, method, status, permission, range, paging). */
export const auditLogsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'audit-logs',
  validateSearch: readAuditSearch,
  component: lazyRouteComponent(() => import('./audit-logs-page'), 'AuditLogsPage'),
});
