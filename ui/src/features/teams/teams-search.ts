import type { ObjectConstraints } from '../../api/constraints.gen';
import { compactSearch, readSearch } from '../../shared/url/search-params';

/**
 * The screen's URL: which list (`tab`), the name search, the page, and the open team or customer (`open`). The API
 * lists teams and customers whole (no query), so the search and the paging are the screen's own.
 */
export const TEAMS_SEARCH: ObjectConstraints = {
  required: [],
  properties: {
    tab: { type: 'string', enum: ['teams', 'customers'] },
    search: { type: 'string', maxLength: 255 },
    limit: { type: 'integer', minimum: 1, maximum: 200 },
    offset: { type: 'integer', minimum: 0 },
    open: { type: 'string' },
  },
};

export interface TeamsSearch {
  tab?: 'teams' | 'customers';
  search?: string;
  limit?: number;
  offset?: number;
  open?: string;
}

export const TEAMS_DEFAULTS = { tab: 'teams', limit: 50, offset: 0 } as const;

export function readTeamsSearch(raw: Record<string, unknown>): TeamsSearch {
  return readSearch(raw, TEAMS_SEARCH);
}

export function teamsSearchOf(search: TeamsSearch): TeamsSearch {
  return compactSearch(search as Record<string, string | number | undefined>, TEAMS_DEFAULTS);
}
