/** @module server/settles-within: waiting for a promise with a time bound (graceful shutdown). */

/**
 * Resolves true when `promise` settles within `ms` milliseconds (a rejection counts as settled),
 * false otherwise; a bound of 0 or less waits for nothing. The timer does not keep the process alive.
 */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    const done = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(done, done);
  });
}
