import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../app/root-route';
import { readWebhooksSearch } from './webhooks-search';

/** `/webhooks?webhook=…&status=…`: the webhooks, and the delivery log of the open one (webhooks-search.ts). */
export const webhooksRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'webhooks',
  validateSearch: readWebhooksSearch,
  component: lazyRouteComponent(() => import('./webhooks-page'), 'WebhooksPage'),
});
