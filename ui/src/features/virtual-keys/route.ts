import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';
import { readVirtualKeysSearch } from './virtual-keys-search';

/** `/virtual-keys?…`: the search is the list's query plus the open key (virtual-keys-search.ts). */
export const virtualKeysRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'virtual-keys',
  validateSearch: readVirtualKeysSearch,
  component: lazyRouteComponent(() => import('./virtual-keys-page'), 'VirtualKeysPage'),
});
