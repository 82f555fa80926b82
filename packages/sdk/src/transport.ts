/**
 * @module sdk/transport: one logical call = signed attempts under the retry matrix, with a per-attempt timeout,
 * a total timeout and the caller's `signal`. Every attempt is signed anew; a POST carries one
 * `Idempotency-Key` on every attempt, so a retry whose first answer was lost is replayed, not re-run.
 */
import { randomUUID } from 'node:crypto';
import { GovernanceApiError, GovernanceNetworkError, GovernanceTimeoutError } from './errors.js';
import { parseRetryAfter, retryDecision, type AttemptOutcome, type RetryCounts, type RetryPolicy } from './retry.js';
import type { RequestSigner } from './signing.js';

/** The API's path prefix; paths given to `send` are relative to it. */
export const API_PREFIX = '/api/public/v1';

/** Waits `ms` milliseconds; rejects with `signal.reason` when the signal aborts first. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** The real `Sleep`: a timer cleared on abort. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** Settings of the transport, fixed per client. */
export interface TransportSettings {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly signer: RequestSigner;
  readonly retry: RetryPolicy;
  /** Per-attempt timeout in milliseconds. */
  readonly attemptTimeoutMs: number;
  /** Total timeout of one logical call (attempts and waits), in milliseconds. */
  readonly timeoutMs: number;
  readonly clock: () => number;
  readonly sleep: Sleep;
  readonly random: () => number;
  readonly userAgent: string;
}

/** Per-call options accepted by every client method. */
export interface CallOptions {
  /** Aborts the call (the attempt in flight and any wait); the promise rejects with `signal.reason`. */
  readonly signal?: AbortSignal;
  /** Total timeout of this call in milliseconds (overrides the client's). */
  readonly timeoutMs?: number;
  /** Per-attempt timeout of this call in milliseconds (overrides the client's). */
  readonly attemptTimeoutMs?: number;
  /** The `Idempotency-Key` of a POST (default: a new UUID per call). Ignored on other methods. */
  readonly idempotencyKey?: string;
  /** Extra request headers (e.g. `If-None-Match`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A successful (2xx or 304) answer. */
export interface ApiResponse<T> {
  /** HTTP status (200, 201, 202 or 304). */
  readonly status: number;
  /** The decoded body: the success envelope `{ ok: true, data, meta }` (`undefined` for a 304). */
  readonly body: T;
  readonly headers: Headers;
  /** `x-request-id` of the answer. */
  readonly requestId: string | undefined;
  /** Attempts made, retries included. */
  readonly attempts: number;
}

/** One request to send: `path` relative to `/api/public/v1`, with its query string. */
export interface RequestSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
}

/**
 * Sends one logical call. @returns the 2xx (or 304) answer.
 * @throws GovernanceApiError for an error answer not retried (or after the retries allowed for it)
 * @throws GovernanceNetworkError when the last allowed attempt got no answer
 * @throws GovernanceTimeoutError when the total timeout passed
 * @throws the caller's `signal.reason` when it aborted
 */
export async function send<T>(
  settings: TransportSettings,
  spec: RequestSpec,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const fullPath = `${API_PREFIX}${spec.path}`;
  const url = new URL(fullPath, settings.baseUrl);
  const payload = spec.body === undefined ? '' : JSON.stringify(spec.body);
  const idempotencyKey = spec.method === 'POST' ? (options.idempotencyKey ?? randomUUID()) : undefined;
  const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? settings.attemptTimeoutMs;
  const total = AbortSignal.timeout(timeoutMs);
  const caller = options.signal;
  const callSignal = caller ? AbortSignal.any([caller, total]) : total;
  const counts: RetryCounts = { network: 0, remediation: 0, rateLimit: 0 };
  let sawNetworkError = false;
  const startedAt = settings.clock();

  /** Maps an abort of `callSignal` to the error the caller should see. */
  const stopped = (attempts: number, cause: unknown): unknown => {
    if (caller?.aborted) return caller.reason;
    return new GovernanceTimeoutError(timeoutMs, attempts, { cause });
  };

  for (let attempt = 1; ; attempt++) {
    if (callSignal.aborted) throw stopped(attempt - 1, callSignal.reason);
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${settings.apiKey}`,
      'user-agent': settings.userAgent,
      'x-service-signature': settings.signer.sign(spec.method, fullPath, payload),
      ...(payload !== '' ? { 'content-type': 'application/json' } : {}),
      ...(idempotencyKey !== undefined ? { 'idempotency-key': idempotencyKey } : {}),
    };
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;

    let outcome: AttemptOutcome;
    let failure: unknown;
    try {
      const signal = AbortSignal.any([callSignal, AbortSignal.timeout(attemptTimeoutMs)]);
      const res = await fetch(url, {
        method: spec.method,
        headers,
        redirect: 'manual',
        signal,
        ...(payload !== '' ? { body: payload } : {}),
      });
      const raw = await res.text();
      const body = decode(raw);
      const requestId = res.headers.get('x-request-id') ?? undefined;
      if ((res.status >= 200 && res.status < 300) || res.status === 304)
        return { status: res.status, body: body as T, headers: res.headers, requestId, attempts: attempt };
      const retryAfterS = parseRetryAfter(res.headers.get('retry-after'), settings.clock());
      failure = new GovernanceApiError(res.status, body, res.headers, retryAfterS, attempt);
      outcome = { type: 'answer', status: res.status, error: errorOf(body), retryAfterS };
    } catch (err) {
      if (callSignal.aborted) throw stopped(attempt, err);
      // A per-attempt timeout, a reset or a refused connection: no answer, so retried as a network error.
      sawNetworkError = true;
      failure = new GovernanceNetworkError(`no answer from ${url.origin} (${describe(err)})`, attempt, { cause: err });
      outcome = { type: 'network' };
    }

    const decision = retryDecision(settings.retry, outcome, counts, sawNetworkError, settings.random);
    if (decision === null) throw failure;
    // A wait that outlasts the total timeout would only end in a timeout: stop now. An error answer (a 429
    // with its `retryAfter`) is more useful to the caller than the timeout; no answer at all is the timeout.
    if (settings.clock() - startedAt + decision.delayMs >= timeoutMs)
      throw failure instanceof GovernanceApiError
        ? failure
        : new GovernanceTimeoutError(timeoutMs, attempt, { cause: failure });
    counts[decision.retryClass] += 1;
    try {
      await settings.sleep(decision.delayMs, callSignal);
    } catch (err) {
      throw stopped(attempt, err);
    }
  }
}

/** The JSON body, or the raw text when it is not JSON (`undefined` when empty). */
function decode(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function errorOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  return typeof body.error === 'string' ? body.error : undefined;
}

/** A short reason of a fetch failure (undici wraps the socket error in `cause`), without secrets. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause;
  if (cause instanceof Error) return `${err.name}: ${cause.message}`;
  return `${err.name}: ${err.message}`;
}
