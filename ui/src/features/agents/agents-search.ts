import { listAgentHistoryQuery, type ObjectConstraints } from '../../api/constraints.gen';
import type { QueryOf } from '../../api/schemas';
import { compactSearch, readSearch } from '../../shared/url/search-params';

/** The screen's URL: the history's query under the API's own names, and the operation open in the drawer (`entry`). */
export const AGENTS_SEARCH: ObjectConstraints = {
  required: [],
  properties: { ...listAgentHistoryQuery.properties, entry: { type: 'string', format: 'uuid' } },
};

export type HistoryQuery = QueryOf<'listAgentHistory'>;
export type AgentsSearch = HistoryQuery & { entry?: string };

/** The history's page size and start: left out of the URL. */
export const HISTORY_DEFAULTS = { limit: 25, offset: 0 } as const;

/** The route's `validateSearch`. */
export function readAgentsSearch(raw: Record<string, unknown>): AgentsSearch {
  return readSearch(raw, AGENTS_SEARCH);
}

/** What goes into the URL: blanks and defaults left out. */
export function agentsSearchOf(search: AgentsSearch): AgentsSearch {
  return compactSearch(search, HISTORY_DEFAULTS);
}

/** The history's API query: the open entry dropped, defaults filled. */
export function historyQueryOf(search: AgentsSearch): Required<Pick<HistoryQuery, 'limit' | 'offset'>> & HistoryQuery {
  const { entry: _entry, ...query } = search;
  return { ...HISTORY_DEFAULTS, ...query };
}
