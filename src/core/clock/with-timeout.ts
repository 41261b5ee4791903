/** What `withTimeout` rejects with when the time is up. */
export class TimedOut extends Error {}

/**
 * `promise`, or a rejection with `TimedOut` once `ms` have passed. Nobody waits for `promise` after that, so its own
 * later rejection is swallowed rather than left unhandled.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what = 'call'): Promise<T> {
  promise.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`${what} got no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
