/**
 * A value that is usually ready: the request path reads in-memory snapshots that are rebuilt, rarely, behind a
 * promise. Awaiting a ready value still costs a microtask per read, so hot paths branch on `isPending` instead, and
 * only this file decides what "pending" means (a lint rule keeps `instanceof Promise` here).
 */
export type MaybePromise<T> = T | Promise<T>;

/** True while the value is still being produced. */
export function isPending<T>(value: MaybePromise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/** `then` that stays synchronous for a ready value: `fn(value)` now, or a promise of it once the value settles. */
export function whenReady<T, R>(value: MaybePromise<T>, fn: (ready: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
