/** What `withTimeout` rejects with when the time is up. */
export class TimedOut extends Error {}

/**
 * `promise`, or a rejection with `TimedOut` once `ms` have passed. Nobody waits for `promise` after that, so its own
 * later rejection is swallowed rather than left unhandled.
 *
 * The time is up only after the event loop has read what arrived meanwhile. A loop stalled past `ms` (a long GC, a
 * starved CPU) runs due timers before it polls sockets, so an answer that came during the stall would otherwise lose to
 * the timer: the rejection waits one `setImmediate`, which runs after that poll, and an answer read there wins.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what = 'call'): Promise<T> {
  // One promise and one timer (no race, no finally): it wraps every governed request's counter calls.
  return new Promise<T>((resolve, reject) => {
    // Once the answer has settled this promise, the late rejection is a no-op.
    const timer = setTimeout(() => setImmediate(() => reject(new TimedOut(`${what} got no answer in ${ms} ms`))), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        // Passed on as it came, as Promise.race did.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        reject(err);
      },
    );
  });
}
