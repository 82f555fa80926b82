/** @module store/rate-limits/repository: the contract of shared rate-limit budgets (design notes "Rate limits"). */
import type { Awaitable } from '../awaitable.js';

/** The two fixed windows of spec §8: the clock minute (id = ⌊unix s / 60⌋) and the clock hour (id = ⌊unix s / 3600⌋). */
export type RateWindow = 'minute' | 'hour';

/** The answer of a lease request. */
export interface Lease {
  /** Requests this caller may now admit from its own memory (0 when nothing is left to lease). */
  readonly granted: number;
  /** The budget leased to all callers (every process) in the window, this grant included. */
  readonly leased: number;
}

/**
 * Per key and window, the request budget handed out ("leased") to the processes that share one
 * DATA_DIR. Invariant: the sum of grants in a window never exceeds the limit passed with each grant,
 * so as long as every process admits only what it was granted, all processes together admit at most
 * the limit (OWASP API4; spec §8 rule 1). Each method is atomic across processes. Windows are
 * identified by number and independent of each other (a clock stepped back simply uses its own
 * window's budget); the first grant of a window removes the key's windows older than the previous
 * one, so no sweep is needed and a key holds at most two windows of each kind.
 */
export interface RateLeases {
  /**
   * Grants `min(want, limit − leased)` (never less than 0) of `keyId`'s budget in window `windowId`
   * and records it, in one write transaction. A later grant under a lowered limit is 0 while
   * `leased ≥ limit`. `want` and `limit` are request counts (`want ≥ 1`).
   */
  take(keyId: string, window: RateWindow, windowId: number, want: number, limit: number): Awaitable<Lease>;
  /** The budget leased so far in window `windowId` (0 if none). A read, no write. */
  leased(keyId: string, window: RateWindow, windowId: number): Awaitable<number>;
  /** Returns `unused` requests of an earlier grant in window `windowId` (a process that stops). No effect once the window was removed. */
  release(keyId: string, window: RateWindow, windowId: number, unused: number): Awaitable<void>;
  /** Closes the backing storage. */
  close(): Promise<void>;
}
