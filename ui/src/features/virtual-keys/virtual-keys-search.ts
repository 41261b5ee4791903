import { listVirtualKeysQuery, type ObjectConstraints } from '../../api/constraints.gen';
import type { QueryOf } from '../../api/schemas';
import { compactSearch, readSearch } from '../../shared/url/search-params';

/** The virtual keys screen's URL: `GET /api/governance/virtual-keys`'s query under its own names, and the open key. */
export const VIRTUAL_KEYS_SEARCH: ObjectConstraints = {
  required: [],
  properties: { ...listVirtualKeysQuery.properties, key: { type: 'string' } },
};

export type VirtualKeysQuery = QueryOf<'listVirtualKeys'>;
export type VirtualKeysSearch = VirtualKeysQuery & { key?: string };

/** The API's defaults: left out of the URL. */
export const VIRTUAL_KEYS_DEFAULTS = { limit: 50, offset: 0, sort_by: 'created_at', order: 'desc' } as const;

/** The route's `validateSearch`. */
export function readVirtualKeysSearch(raw: Record<string, unknown>): VirtualKeysSearch {
  return readSearch(raw, VIRTUAL_KEYS_SEARCH);
}

/** What goes into the URL: blanks and defaults left out. */
export function virtualKeysSearchOf(search: VirtualKeysSearch): VirtualKeysSearch {
  return compactSearch(search, VIRTUAL_KEYS_DEFAULTS);
}

/** The list's API query: the screen's own keys dropped, defaults filled. */
export function virtualKeysQueryOf(
  search: VirtualKeysSearch,
): Required<Pick<VirtualKeysQuery, 'limit' | 'offset' | 'sort_by' | 'order'>> & VirtualKeysQuery {
  const { key: _key, ...query } = search;
  return { ...VIRTUAL_KEYS_DEFAULTS, ...query };
}
