import createClient from 'openapi-fetch';
import { apiErrorOf, networkError } from './errors';
import type { paths } from './openapi';

/**
 * The gateway's root as this page sees it: the folder above the dashboard's (`/ui/`), so every call keeps a reverse
 * proxy's path prefix (`/gateway/ui/logs` calls `/gateway/api/logs`). The page's `<base>` is the dashboard's root.
 */
export const gatewayRoot = new URL('..', document.baseURI);

/** The typed API client: paths, parameters and bodies from openapi/openapi.json (scripts/api-types.mjs). */
export const api = createClient<paths>({
  baseUrl: gatewayRoot.href.replace(/\/$/, ''),
  credentials: 'same-origin',
});

const sessionEndedListeners = new Set<(message: string) => void>();

/** Called when any call outside `/api/session/*` answers 401: the session ended (expired, revoked, password changed). */
export function onSessionEnded(listener: (message: string) => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

api.use({
  onResponse({ response, schemaPath }) {
    if (response.status === 401 && !schemaPath.startsWith('/api/session/')) {
      for (const listener of sessionEndedListeners) listener('Your session has ended. Sign in again to continue.');
    }
    return undefined;
  },
});

/** The data of a call, or its ApiError thrown (the API's message and `param`; status 0 when nothing answered). */
export async function call<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await pending;
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw networkError(cause);
  }
  if (!result.response.ok) throw apiErrorOf(result.response.status, result.error, result.response.headers);
  return result.data as T;
}
