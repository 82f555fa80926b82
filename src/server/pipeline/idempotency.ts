/**
 * @module server/pipeline/idempotency: the `Idempotency-Key` request header on public POSTs (issue 19;
 * draft-ietf-httpapi-idempotency-key-header). Runs after authentication, signature, replay refusal,
 * rate limit, routing and permission, just before the handler: the first request of a (key id,
 * Idempotency-Key) claims it, its response is stored for IDEMPOTENCY_TTL_MS and replayed to a retry
 * of the same request; a request without the header never reaches this module (no store access).
 * The stored body is sealed (AES-256-GCM under a sub-key of the master key, bound to the key id and
 * the Idempotency-Key): answers carry secrets (a `whsec_` signing secret, a result token) that must
 * not rest in clear in the store, its backups or a shared Redis (issue 31, item 3).
 */
import { createHash } from 'node:crypto';
import type { ApiRequest, ApiResponse, RequestContext } from '../http/types.js';
import type { IdempotencyRepository, StoredResponse } from '../../store/idempotency/repository.js';
import { isPromise, thenMaybe, type Awaitable } from '../../store/awaitable.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';
import { SealedBox } from '../auth/sealed-box.js';

/** How long a stored response is replayed, in milliseconds (24 h, the draft's example and Stripe's). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/**
 * How long a `running` claim holds, in milliseconds (60 s). A node that crashed mid-request leaves its
 * claim behind; after this a retry runs again. Longer than any handler runs (the inline call's timeout
 * is shorter), so a live claim is never taken over.
 */
export const IDEMPOTENCY_RUNNING_MS = 60_000;
/** Seconds a client is asked to wait when the first request of its key is still running. */
export const IDEMPOTENCY_RETRY_AFTER_S = 1;
/** Milliseconds between sweeps of expired records (the LMDB backend; Redis expires keys itself). */
const SWEEP_INTERVAL_MS = 60_000;

/** 1 to 255 printable ASCII characters (space to `~`). */
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * Response headers never stored: they describe the answering request, not the result (the per-request
 * rate-limit state and request id are added again by the adapter to the replay, as to any answer).
 * Every other header of the response (`Retry-After`, `Location`, `Allow`, `ETag`) is stored;
 * `Content-Type` is always `application/json; charset=utf-8` and written by the adapter.
 */
const NOT_STORED: ReadonlySet<string> = new Set([
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-request-id',
  'connection',
  'content-length',
  'set-cookie',
]);

/** The answer to a key that is still running: 409 with `Retry-After: 1`. */
const IN_PROGRESS = fail(API_ERRORS.idempotencyInProgress, {
  detail: 'A request with this Idempotency-Key is still being processed; retry after Retry-After',
  headers: [['retry-after', String(IDEMPOTENCY_RETRY_AFTER_S)]],
});
const REUSED = fail(API_ERRORS.idempotencyKeyReused, {
  detail: 'This Idempotency-Key was used with a different method, path, query or body',
});
/** A stored body that no longer opens: the master key changed since it was stored, or the record was altered. */
const UNREADABLE = fail(API_ERRORS.internal, {
  detail: 'The stored response of this Idempotency-Key cannot be read; send the request with a new key',
});
const INVALID = fail(API_ERRORS.idempotencyKeyInvalid, {
  detail: 'Idempotency-Key must be 1 to 255 printable ASCII characters',
});

/** A handler to run at most once per key: the matched route. */
export interface IdempotentTarget {
  handle(req: ApiRequest, ctx: RequestContext): Awaitable<ApiResponse>;
}

/** Runs `target` for a request that carries `Idempotency-Key` (the caller checked it is present). */
export type IdempotencyStage = (
  req: ApiRequest,
  ctx: RequestContext,
  target: IdempotentTarget,
) => Awaitable<ApiResponse>;

/**
 * The fingerprint of a request: hex SHA-256 of method, path with query and body bytes. The signature
 * header is not part of it: a retry is re-signed with a new timestamp (the replay guard refuses an
 * identical signature), and is still the same request.
 */
export function fingerprintOf(req: ApiRequest): string {
  const target = req.query === '' ? req.path : `${req.path}?${req.query}`;
  return createHash('sha256').update(`${req.method}\n${target}\n`).update(req.body).digest('hex');
}

/** The additional authenticated data of a stored body: it opens only for its own (key id, Idempotency-Key). */
const sealContext = (keyId: string, key: string): string => `idempotency\u0000${keyId}\u0000${key}`;

/**
 * The idempotency stage over `store` with the clock `now` (epoch ms); `box` seals every stored body
 * (`deriveKey(secrets, 'idempotency-replay')`).
 * - 400 `Invalid Idempotency-Key` for a value that is not 1 to 255 printable ASCII characters;
 * - 409 `Idempotent request in progress` (`Retry-After: 1`) while the first request of the key runs;
 * - 422 `Idempotency-Key reused with a different request` for another fingerprint;
 * - the stored response with `Idempotent-Replayed: true` for a retry (500 `Internal server error` when
 *   its body no longer opens: sealed under another master key);
 * - else the handler's answer, stored unless it is a 5xx (or it threw), which releases the claim.
 * A failed store write after the handler answered is reported to `onFailure` and the answer sent: the
 * claim then expires after IDEMPOTENCY_RUNNING_MS (a 5xx before the handler ran is the store's 503).
 */
export function idempotency(
  store: IdempotencyRepository,
  box: SealedBox,
  now: () => number,
  onFailure: (error: unknown) => void = () => undefined,
): IdempotencyStage {
  let lastSweep = 0;
  return function runIdempotent(req, ctx, target) {
    const key = req.headers['idempotency-key']!;
    if (!VALID_KEY.test(key)) return INVALID;
    const at = now();
    if (at - lastSweep >= SWEEP_INTERVAL_MS) {
      lastSweep = at;
      store.sweep(at).catch(onFailure);
    }
    const keyId = ctx.key!.key_id;
    const context = sealContext(keyId, key);
    return thenMaybe(
      store.claim(keyId, key, fingerprintOf(req), at, at + IDEMPOTENCY_RUNNING_MS),
      (outcome): Awaitable<ApiResponse> => {
        if (outcome.kind === 'mismatch') return REUSED;
        if (outcome.kind === 'running') return IN_PROGRESS;
        if (outcome.kind === 'done') return replayed(outcome.response, box, context);
        const token = outcome.token;
        const settle = async (answer: ApiResponse): Promise<ApiResponse> => {
          try {
            if (answer.status >= 500) await store.release(keyId, key, token);
            else {
              const done = now();
              const kept = stored(answer, box, context);
              await store.complete(keyId, key, token, kept, done, done + IDEMPOTENCY_TTL_MS);
            }
          } catch (error) {
            onFailure(error);
          }
          return answer;
        };
        const threw = async (error: unknown): Promise<never> => {
          await store.release(keyId, key, token).catch(onFailure);
          throw error;
        };
        let answer: Awaitable<ApiResponse>;
        try {
          answer = target.handle(req, ctx);
        } catch (error) {
          return threw(error);
        }
        return isPromise(answer) ? answer.then(settle, threw) : settle(answer);
      },
    );
  };
}

/** What is kept of an answer: its status and result headers in clear, its body sealed for `context`. */
function stored(answer: ApiResponse, box: SealedBox, context: string): StoredResponse {
  return {
    status: answer.status,
    headers: (answer.headers ?? []).filter(([name]) => !NOT_STORED.has(name.toLowerCase())).map(([n, v]) => [n, v]),
    body: box.seal(typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body, context),
  };
}

/**
 * A stored answer, replayed byte for byte with `Idempotent-Replayed: true`. A body stored in clear by
 * a version before sealing (within its 24 h) is replayed as it is.
 */
function replayed(response: StoredResponse, box: SealedBox, context: string): ApiResponse {
  const body = SealedBox.isSealed(response.body) ? box.open(response.body, context) : Buffer.from(response.body);
  if (body === null) return UNREADABLE;
  return { status: response.status, body, headers: [...response.headers, ['idempotent-replayed', 'true']] };
}
