import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Schema } from '../../api/schemas';

export const SESSION_STATUS_KEY = ['session', 'status'] as const;
export const CALLER_KEY = ['session', 'caller'] as const;

/** Whether dashboard auth is on, whether this browser holds a valid session, and how to unlock. */
export const authStatusQuery = queryOptions({
  queryKey: SESSION_STATUS_KEY,
  queryFn: ({ signal }) => call(api.GET('/api/session/is-auth-enabled', { signal })),
  staleTime: Infinity,
});

export function useAuthStatus() {
  return useQuery(authStatusQuery);
}

type AuthStatus = Schema<'AuthStatus'>;

/**
 * After a sign-in or a sign-out: nothing read under another identity survives. A sign-out first marks the session
 * gone, so the screens unmount before their data is dropped (a screen still mounted would read it again, be refused
 * with 401 and report an ended session).
 */
export async function restartSession(queryClient: QueryClient, signedOut = false): Promise<void> {
  if (signedOut) {
    queryClient.setQueryData<AuthStatus>(
      SESSION_STATUS_KEY,
      (status) => status && { ...status, has_valid_token: false },
    );
  }
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== 'session' || query.queryKey[1] !== 'status',
  });
  await queryClient.invalidateQueries({ queryKey: SESSION_STATUS_KEY });
}

type Listener = () => void;
let notice: string | undefined;
const listeners = new Set<Listener>();

/** The message the sign-in page shows next ("Your session has ended…", "Signed out."). */
export const sessionNotice = {
  get: () => notice,
  set(message: string | undefined) {
    notice = message;
    for (const listener of listeners) listener();
  },
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
