/**
 * @module sdk/errors: the failures a caller branches on, as classes with a `kind` (never matched by message).
 * `GovernanceApiError` carries the spec's error envelope (§7); the others say why no answer came.
 */

/** One field-level error of a 422 (`path` is a JSON Pointer into the request body). */
export interface FieldError {
  readonly path: string;
  readonly message: string;
}

/** The fields of an error envelope the SDK reads (spec §7); unknown members are tolerated. */
interface ErrorEnvelope {
  readonly ok?: boolean;
  readonly error?: unknown;
  readonly detail?: unknown;
  readonly message?: unknown;
  readonly request_id?: unknown;
}

/** Base class of every error the SDK throws itself. */
export abstract class GovernanceError extends Error {
  /** Discriminant: `api` (an error answer), `network` (no answer), `timeout` (total timeout). */
  abstract readonly kind: 'api' | 'network' | 'timeout';
  /** Attempts made for the call, retries included. */
  abstract readonly attempts: number;
}

/**
 * A non-2xx answer in the spec's envelope `{ ok: false, error, detail?, message?, request_id? }` (§7).
 * Thrown after the retry matrix gave up or does not retry this answer.
 */
export class GovernanceApiError extends GovernanceError {
  override readonly name = 'GovernanceApiError';
  readonly kind = 'api' as const;
  /** HTTP status, e.g. 404. */
  readonly status: number;
  /** The spec's short stable `error` string, e.g. `Scenario not found`; `HTTP <status>` when the body has none. Not a closed set. */
  readonly error: string;
  /** Field-level errors of a 422 (`detail[]`); empty otherwise. */
  readonly detail: readonly FieldError[];
  /** The first non-empty of a string `detail` and the legacy `message` (§7), if any. */
  readonly description: string | undefined;
  /** `request_id` of the body, else the `x-request-id` header: quote it when reporting a 500. */
  readonly requestId: string | undefined;
  /** `Retry-After` in seconds (429, 409, 503), if the answer had one. */
  readonly retryAfter: number | undefined;
  /** The decoded body (or its raw text when it was not JSON). */
  readonly body: unknown;
  readonly attempts: number;

  constructor(status: number, body: unknown, headers: Headers, retryAfter: number | undefined, attempts: number) {
    const envelope: ErrorEnvelope = typeof body === 'object' && body !== null ? body : {};
    const error = typeof envelope.error === 'string' && envelope.error !== '' ? envelope.error : `HTTP ${status}`;
    const detail = Array.isArray(envelope.detail) ? envelope.detail.filter(isFieldError) : [];
    const description = [envelope.detail, envelope.message].find((v): v is string => typeof v === 'string' && v !== '');
    super(
      description !== undefined && description !== error ? `${status} ${error}: ${description}` : `${status} ${error}`,
    );
    this.status = status;
    this.error = error;
    this.detail = detail;
    this.description = description;
    this.requestId =
      typeof envelope.request_id === 'string' ? envelope.request_id : (headers.get('x-request-id') ?? undefined);
    this.retryAfter = retryAfter;
    this.body = body;
    this.attempts = attempts;
  }
}

/** No answer: a network error, a connection reset or a per-attempt timeout on the last allowed attempt. */
export class GovernanceNetworkError extends GovernanceError {
  override readonly name = 'GovernanceNetworkError';
  readonly kind = 'network' as const;
  readonly attempts: number;
  constructor(message: string, attempts: number, options: { cause: unknown }) {
    super(message, options);
    this.attempts = attempts;
  }
}

/** The call's total timeout (`timeoutMs`) passed, during an attempt or while waiting to retry. */
export class GovernanceTimeoutError extends GovernanceError {
  override readonly name = 'GovernanceTimeoutError';
  readonly kind = 'timeout' as const;
  readonly attempts: number;
  /** The total timeout that passed, in milliseconds. */
  readonly timeoutMs: number;
  constructor(timeoutMs: number, attempts: number, options?: { cause: unknown }) {
    super(`no answer within the total timeout of ${timeoutMs} ms (${attempts} attempt(s))`, options);
    this.timeoutMs = timeoutMs;
    this.attempts = attempts;
  }
}

function isFieldError(v: unknown): v is FieldError {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as FieldError).path === 'string' &&
    typeof (v as FieldError).message === 'string'
  );
}
