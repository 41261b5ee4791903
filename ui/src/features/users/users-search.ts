import type { ObjectConstraints } from '../../api/constraints.gen';
import { compactSearch, readSearch } from '../../shared/url/search-params';

/**
 * The screen's URL: which list (`tab`), the search over names and emails, the page, and the open role (`role`). The
 * API pages and searches the users; the roles come whole.
 */
export const USERS_SEARCH: ObjectConstraints = {
  required: [],
  properties: {
    tab: { type: 'string', enum: ['users', 'roles'] },
    search: { type: 'string', maxLength: 320 },
    limit: { type: 'integer', minimum: 1, maximum: 200 },
    offset: { type: 'integer', minimum: 0 },
    role: { type: 'string' },
  },
};

export interface UsersSearch {
  tab?: 'users' | 'roles';
  search?: string;
  limit?: number;
  offset?: number;
  role?: string;
}

export const USERS_DEFAULTS = { tab: 'users', limit: 50, offset: 0 } as const;

export function readUsersSearch(raw: Record<string, unknown>): UsersSearch {
  return readSearch(raw, USERS_SEARCH);
}

export function usersSearchOf(search: UsersSearch): UsersSearch {
  return compactSearch(search as Record<string, string | number | undefined>, USERS_DEFAULTS);
}
