import { parseRetryAfter } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 turns retries off). */
  maxRetries?: number;
  /** Longest single wait; a longer `Retry-After` is not waited for and the answer is returned as is (default 60 s). */
  maxDelayMs?: number;
  /** Wait when the answer carries no `Retry-After`: doubled per attempt from this (default 500 ms). */
  initialDelayMs?: number;
}

/** Statuses that say "later": the request was refused before it did anything, so any method may be sent again. */
const RETRIED = new Set([429, 503]);

/**
 * A fetch that sends a request again when the gateway answers 429 or 503, after the answer's `Retry-After` (seconds
 * or an HTTP date) or, without one, a doubling delay. The last answer is returned whatever it is.
 */
export function retryingFetch(
  fetchImpl: (request: Request) => Promise<Response>,
  options: RetryOptions = {},
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((ok) => setTimeout(ok, ms)),
): (request: Request) => Promise<Response> {
  const maxRetries = options.maxRetries ?? 3;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const initialDelayMs = options.initialDelayMs ?? 500;
  return async (request: Request) => {
    for (let attempt = 0; ; attempt += 1) {
      // A body can be read once: every attempt sends a copy, the original stays unread for the next.
      const response = await fetchImpl(attempt < maxRetries ? request.clone() : request);
      if (!RETRIED.has(response.status) || attempt >= maxRetries) return response;
      const hinted = parseRetryAfter(response.headers.get('retry-after'));
      const delay = hinted ?? initialDelayMs * 2 ** attempt;
      if (delay > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}
