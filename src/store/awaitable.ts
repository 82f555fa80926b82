/**
 * @module store/awaitable: the return type of repository reads.
 *
 * A read returns its value directly when the backend has it in memory or in a memory map (LMDB:
 * a read is a lookup in the mapped file, and a promise per read would add an allocation and a
 * microtask to every request of the hot path) and a promise when it must ask a server (Redis).
 * Callers `await` it, or on the hot path test `isPromise` and stay synchronous when they can.
 */

/** A value now, or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/** True when `value` is a promise (a thenable) rather than the value itself. */
export function isPromise<T>(value: Awaitable<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** Calls `next` with the value of `value`: synchronously when it is there, else once it resolves. */
export function thenMaybe<T, R>(value: Awaitable<T>, next: (v: T) => Awaitable<R>): Awaitable<R> {
  return isPromise(value) ? value.then(next) : next(value);
}
