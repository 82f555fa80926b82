/**
 * @module store/sign-in/repository: the sign-in throttle aggregate (docs/console-api.md "Sign-in
 * throttling"): failure counts per throttle key (an account, a client address) in a fixed window,
 * and the lock a key gets when its count reaches its limit. Kept in the store so that every process
 * and node counts the same failures.
 */
import type { Awaitable } from '../awaitable.js';

/** One key to count a failure against, with the count that locks it. */
export interface ThrottleKey {
  /** Opaque key, e.g. `account:<e-mail>` or `ip:<address>` (any UTF-8 without U+0000-U+0004). */
  readonly key: string;
  /** Failures within the window that lock the key (≥ 1). */
  readonly limit: number;
}

/** What one recorded failure did to one key. */
export interface ThrottleCount {
  /** Failures in the key's current window, this one included. */
  readonly count: number;
  /** Epoch ms until which the key is locked, or null when it is not locked. */
  readonly lockedUntil: number | null;
}

/**
 * Sign-in failure counters. A key's window starts at its first failure and lasts `windowMs`; a
 * failure after the window starts a new one at count 1. The failure that brings the count to the
 * key's limit locks the key for `lockMs` from then (a lock in force is never extended).
 */
export interface SignInThrottleRepository {
  /**
   * Counts one failure against each key, atomically per key (concurrent failures all count).
   * @param nowMs epoch ms of the failure.
   * @param windowMs length of a counting window in ms.
   * @param lockMs how long a key stays locked once its count reaches its limit, in ms.
   * @returns per key, in order, its count and lock.
   */
  recordFailure(
    keys: readonly ThrottleKey[],
    nowMs: number,
    windowMs: number,
    lockMs: number,
  ): Promise<ThrottleCount[]>;
  /** The latest epoch ms until which one of `keys` is locked, or null when none is locked at `nowMs`. */
  lockedUntil(keys: readonly string[], nowMs: number): Awaitable<number | null>;
  /** Forgets a key's failures and lock (a successful sign-in resets its account). */
  reset(key: string): Promise<void>;
}
