/**
 * @module store/sign-in/repository: the sign-in throttle aggregate (docs/console-api.md "Sign-in
 * throttling"): attempts per throttle key (an account, a client address) in a fixed window, and the
 * lock a key gets when its count reaches its limit. Kept in the store so that every process and node
 * counts the same attempts. An attempt is reserved before its password is verified and settled after
 * (issue 31, item 2), so that concurrent attempts can never verify more passwords than the limit.
 */
import type { Awaitable } from '../awaitable.js';

/** One key an attempt counts against, with the count that locks it. */
export interface ThrottleKey {
  /** Opaque key, e.g. `account:<e-mail>` or `ip:<address>` (any UTF-8 without U+0000-U+0004). */
  readonly key: string;
  /** Attempts (failed or still being verified) within the window that lock the key (≥ 1). */
  readonly limit: number;
  /**
   * Whether a successful attempt forgives the key's failures settled before it was reserved (an
   * account: the person who typed them proved they know the password), rather than only withdrawing
   * its own reservation (an address).
   */
  readonly forgive: boolean;
}

/** A key as one admitted attempt reserved it: what `settle` needs to find that reservation again. */
export interface ReservedKey extends ThrottleKey {
  /** Opaque id of the key's counting window the reservation was made in. */
  readonly window: string;
  /** Failures settled in that window when the reservation was made (what a success may forgive). */
  readonly seen: number;
}

/** The answer to `reserve`: admitted with its reservation, or refused by a lock. */
export type ThrottleReservation =
  | { readonly admitted: true; readonly keys: readonly ReservedKey[] }
  | { readonly admitted: false; readonly lockedUntil: number };

/**
 * Sign-in attempt counters. A key's count is its failures in the current window (less those a
 * success forgave) plus its attempts reserved and not yet settled. A window starts at the first
 * attempt and lasts `windowMs`; an attempt after it starts a new one (the old window's unsettled
 * reservations are dropped with it). The reservation that brings the count to the key's limit locks
 * the key for `lockMs`: no attempt is admitted while any of its keys is locked, so at most `limit`
 * attempts of a window are ever verified (more only when `lockMs` < `windowMs`: one per lock, as
 * each reservation after a lock relocks).
 */
export interface SignInThrottleRepository {
  /**
   * Reserves one attempt against all `keys` atomically (concurrent calls, from any process or node,
   * are serialised): when none of them is locked at `nowMs`, counts the attempt against each and
   * locks every key whose count reaches its limit; when one is locked, changes nothing.
   * @param nowMs epoch ms of the attempt.
   * @param windowMs length of a counting window in ms.
   * @param lockMs how long a key stays locked once its count reaches its limit, in ms.
   * @returns the reservation (its keys in order), or the latest epoch ms until which one of the keys is locked.
   */
  reserve(keys: readonly ThrottleKey[], nowMs: number, windowMs: number, lockMs: number): Promise<ThrottleReservation>;
  /**
   * Settles an admitted attempt, atomically per call. A failure stays counted. A success withdraws
   * its reservation and, on keys that `forgive`, forgives the failures settled before it was
   * reserved (later ones, and attempts still being verified, stay counted). Either way a key whose
   * count is now below its limit is unlocked, and a key with nothing left counted is forgotten (its
   * next attempt starts a new window). A key whose window has ended meanwhile is left alone.
   */
  settle(keys: readonly ReservedKey[], outcome: 'failure' | 'success'): Promise<void>;
  /** The latest epoch ms until which one of `keys` is locked, or null when none is locked at `nowMs`. */
  lockedUntil(keys: readonly string[], nowMs: number): Awaitable<number | null>;
}
