import { EventEmitter } from 'node:events';

/**
 * A caller's cancellation (a client that went away, a shutdown) for one proxied request: what an AbortController
 * would do, for a fraction of its cost. An AbortSignal is an EventTarget, whose creation and listeners cost several
 * microseconds each on Node 20; the inference path would pay that on every request for a cancellation that almost
 * never happens. undici takes any EventEmitter with `aborted` and `reason` as a request's `signal`.
 */
export class Cancellation extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  /** Cancels once (later calls do nothing); listeners of `abort` run synchronously. */
  abort(reason: unknown = new Error('cancelled')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }

  /**
   * Waits `ms`; resolves true when the time passed, false when cancelled first (at once when already cancelled).
   * The retry backoff of a request uses it, so a client that goes away does not wait out the backoff.
   */
  delay(ms: number): Promise<boolean> {
    if (this.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.removeListener('abort', onAbort);
        resolve(true);
      }, ms);
      this.once('abort', onAbort);
    });
  }
}
