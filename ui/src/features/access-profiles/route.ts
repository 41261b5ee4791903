import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';

export interface AccessProfilesSearch {
  /** The open template's id. */
  profile?: number;
  /** The propagation followed (its job id), so a reload keeps following it. */
  job?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `profile=` is a template id (a positive integer), `job=` a propagation's id (a UUID); anything else is dropped. */
export function readAccessProfilesSearch(raw: Record<string, unknown>): AccessProfilesSearch {
  const id = Number(raw.profile);
  if (!Number.isInteger(id) || id <= 0) return {};
  const job = typeof raw.job === 'string' && UUID.test(raw.job) ? raw.job : undefined;
  return job ? { profile: id, job } : { profile: id };
}

/**
 * `/access-profiles?profile=<id>` (enterprise): the templates, and the open one's versions, role defaults, users'
 * copies and propagation.
 */
export const accessProfilesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'access-profiles',
  validateSearch: readAccessProfilesSearch,
  component: lazyRouteComponent(() => import('./access-profiles-page'), 'AccessProfilesPage'),
});
