/**
 * @module sdk/retry: the spec's retry matrix (public-api-v1 §7 "Retry matrix") as one pure decision, so the
 * backoff and jitter are tested with an injected `random`:
 * - 429: wait `Retry-After` plus a small jitter (exponential backoff when the header is missing);
 * - 500 `Remediation generation failed`: up to 3 retries with exponential backoff;
 * - network errors and connection resets (a per-attempt timeout included): up to 3 retries with exponential backoff;
 * - nothing else (other 500s, other 4xx, 503...) is retried.
 * One consequence of retrying a POST after a network error: the first attempt may still be running on the
 * server, which answers the retry `409 Idempotent request in progress` with `Retry-After` (docs/api.md
 * "Idempotency keys"). That 409 is waited out like the network error it follows and counts against its budget.
 */

/** The exact `error` string of the one retried 500 (spec §7). */
export const REMEDIATION_FAILED = 'Remediation generation failed';
/** The `error` string of the 409 answered to a retry while the first attempt still runs (docs/api.md). */
export const IDEMPOTENT_IN_PROGRESS = 'Idempotent request in progress';

/** Retry settings; every field is optional in `ClientOptions.retry`. */
export interface RetryPolicy {
  /** Retries after network errors, resets and per-attempt timeouts. Default 3 (spec §7). */
  readonly maxNetworkRetries: number;
  /** Retries of `500 Remediation generation failed`. Default 3 (spec §7). */
  readonly maxRemediationRetries: number;
  /**
   * Retries of 429. Default 3. The spec bounds no count; this stops a client that shares its key with a busy
   * neighbour from waiting for ever. A wait longer than the call's remaining total timeout is not started.
   */
  readonly maxRateLimitRetries: number;
  /** First backoff delay in milliseconds; retry n waits about `baseDelayMs · 2^(n−1)`. Default 500. */
  readonly baseDelayMs: number;
  /** Upper bound of one backoff delay in milliseconds. Default 8000. */
  readonly maxDelayMs: number;
  /** Largest jitter added to `Retry-After`, in milliseconds. Default 250. */
  readonly rateLimitJitterMs: number;
}

/** The defaults of `RetryPolicy`. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxNetworkRetries: 3,
  maxRemediationRetries: 3,
  maxRateLimitRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  rateLimitJitterMs: 250,
};

/** What one attempt ended with. */
export type AttemptOutcome =
  | { readonly type: 'network' }
  | {
      readonly type: 'answer';
      readonly status: number;
      /** The envelope's `error` string, if any. */
      readonly error: string | undefined;
      /** `Retry-After` in seconds, if any. */
      readonly retryAfterS: number | undefined;
    };

/** Retries already spent per class within one logical call. */
export interface RetryCounts {
  network: number;
  remediation: number;
  rateLimit: number;
}

/** Which budget a retry draws from. */
export type RetryClass = keyof RetryCounts;

/**
 * Exponential backoff with "equal jitter": half of `min(max, base · 2^(retry−1))` fixed, the other half random.
 * @param retry 1 for the first retry
 * @param random a number in [0, 1)
 * @returns milliseconds to wait
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (random * ceiling) / 2);
}

/**
 * Whether to retry after `outcome`, and after how long.
 * @param counts retries already made per class (not changed here)
 * @param sawNetworkError whether an earlier attempt of this call ended without an answer
 * @returns `null` (do not retry) or the class to charge and the wait in milliseconds
 */
export function retryDecision(
  policy: RetryPolicy,
  outcome: AttemptOutcome,
  counts: Readonly<RetryCounts>,
  sawNetworkError: boolean,
  random: () => number,
): { readonly retryClass: RetryClass; readonly delayMs: number } | null {
  if (outcome.type === 'network') {
    if (counts.network >= policy.maxNetworkRetries) return null;
    return { retryClass: 'network', delayMs: backoffDelay(policy, counts.network + 1, random()) };
  }
  if (outcome.status === 429) {
    if (counts.rateLimit >= policy.maxRateLimitRetries) return null;
    const delayMs =
      outcome.retryAfterS !== undefined
        ? outcome.retryAfterS * 1000 + Math.round(random() * policy.rateLimitJitterMs)
        : backoffDelay(policy, counts.rateLimit + 1, random());
    return { retryClass: 'rateLimit', delayMs };
  }
  if (outcome.status === 500 && outcome.error === REMEDIATION_FAILED) {
    if (counts.remediation >= policy.maxRemediationRetries) return null;
    return { retryClass: 'remediation', delayMs: backoffDelay(policy, counts.remediation + 1, random()) };
  }
  if (outcome.status === 409 && outcome.error === IDEMPOTENT_IN_PROGRESS && sawNetworkError) {
    if (counts.network >= policy.maxNetworkRetries) return null;
    const delayMs =
      outcome.retryAfterS !== undefined
        ? outcome.retryAfterS * 1000 + Math.round(random() * policy.rateLimitJitterMs)
        : backoffDelay(policy, counts.network + 1, random());
    return { retryClass: 'network', delayMs };
  }
  return null;
}

/**
 * `Retry-After` in seconds: delta-seconds or an HTTP-date (RFC 9110 §10.2.3), never negative.
 * @param nowMs the current time, for the date form
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}
