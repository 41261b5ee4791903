import { listWebhookDeliveriesQuery, type ObjectConstraints } from '../../api/constraints.gen';
import type { QueryOf } from '../../api/schemas';
import { compactSearch, readSearch } from '../../shared/url/search-params';

/** The screen's URL: the open webhook (`webhook`), and its delivery log's query under the API's own names. */
export const WEBHOOKS_SEARCH: ObjectConstraints = {
  required: [],
  properties: { ...listWebhookDeliveriesQuery.properties, webhook: { type: 'string', format: 'uuid' } },
};

export type DeliveriesQuery = QueryOf<'listWebhookDeliveries'>;
export type WebhooksSearch = DeliveriesQuery & { webhook?: string };

/** The API's defaults: left out of the URL. */
export const DELIVERIES_DEFAULTS = { limit: 25, offset: 0 } as const;

/** The route's `validateSearch`. */
export function readWebhooksSearch(raw: Record<string, unknown>): WebhooksSearch {
  return readSearch(raw, WEBHOOKS_SEARCH);
}

/** What goes into the URL: blanks and defaults left out. */
export function webhooksSearchOf(search: WebhooksSearch): WebhooksSearch {
  return compactSearch(search, DELIVERIES_DEFAULTS);
}

/** The delivery log's API query: the open webhook dropped, defaults filled. */
export function deliveriesQueryOf(
  search: WebhooksSearch,
): Required<Pick<DeliveriesQuery, 'limit' | 'offset'>> & DeliveriesQuery {
  const { webhook: _webhook, ...query } = search;
  return { ...DELIVERIES_DEFAULTS, ...query };
}
