/**
 * @module store/idempotency/repository: Idempotency-Key records (issue 19; draft-ietf-httpapi-idempotency-key-header):
 * per (API key id, key value) one claim, `running` while the first request is handled, then its stored response.
 */
import type { Awaitable } from '../awaitable.js';

/** A response kept for replay: status, the headers that matter (server/pipeline/idempotency) and the body bytes. */
export interface StoredResponse {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

/**
 * The outcome of a claim:
 * - `claimed`: this call owns the key; it must `complete` or `release` it with `token`;
 * - `running`: another request with the same fingerprint holds an unexpired claim;
 * - `mismatch`: the key is held (running or done) for a different fingerprint;
 * - `done`: the stored response of the same fingerprint, to replay.
 */
export type ClaimOutcome =
  | { readonly kind: 'claimed'; readonly token: string }
  | { readonly kind: 'running' }
  | { readonly kind: 'mismatch' }
  | { readonly kind: 'done'; readonly response: StoredResponse };

/** Idempotency records, shared by every process (and, in cluster mode, every node) on the store. */
export interface IdempotencyRepository {
  /**
   * Claims `key` of `keyId` for `fingerprint` (hex SHA-256) at `now` (epoch ms) unless an unexpired
   * record holds it: a conditional write, so of N concurrent claims exactly one is `claimed`. An
   * expired record (a stale `running` claim of a crashed node, or a stored response past its 24 h) is
   * replaced. The claim expires at `runningUntil` (epoch ms).
   */
  claim(keyId: string, key: string, fingerprint: string, now: number, runningUntil: number): Awaitable<ClaimOutcome>;
  /**
   * Stores `response` under the claim `token` at `now`, kept until `expiresAt` (epoch ms).
   * @returns false (nothing written) when the claim is no longer this token's (it expired and was taken over).
   */
  complete(
    keyId: string,
    key: string,
    token: string,
    response: StoredResponse,
    now: number,
    expiresAt: number,
  ): Promise<boolean>;
  /** Drops the `running` claim `token` (a 5xx, a thrown handler) so that a retry runs again. @returns false when not held. */
  release(keyId: string, key: string, token: string): Promise<boolean>;
  /** Removes records expired at `now` (epoch ms). @returns how many (a backend that expires keys itself returns 0). */
  sweep(now: number): Promise<number>;
}
