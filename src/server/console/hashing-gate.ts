/**
 * @module server/console/hashing-gate: bounds the password hashes (scrypt, 128 MiB each; server/console/users)
 * this process computes at once for sign-ins (issue 31, item 2). A sign-in beyond the bound is
 * refused at once (429 with Retry-After), never queued: a queue would only move the wait, and a
 * flood of queued sign-ins delays the real one behind it.
 */

/** A non-blocking counting semaphore over concurrent password verifications. */
export class HashingGate {
  private inUse = 0;

  /** @param limit verifications allowed at once (`SIGN_IN_CONCURRENCY`, ≥ 1). */
  constructor(readonly limit: number) {}

  /** Verifications running now. */
  get running(): number {
    return this.inUse;
  }

  /**
   * Takes a slot when one is free.
   * @returns a function that gives the slot back (idempotent), or null when all `limit` slots are taken.
   */
  tryEnter(): (() => void) | null {
    if (this.inUse >= this.limit) return null;
    this.inUse += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse -= 1;
    };
  }
}
