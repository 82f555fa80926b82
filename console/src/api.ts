/**
 * @module console/api: every call to the console API (docs/console-api.md). The CSRF token lives in
 * this module's memory only (never localStorage, sessionStorage or a URL): a reload asks
 * `GET /api/v1/session` for it again. The session itself is the HttpOnly cookie `gov_session`.
 */
import type { Failure } from '../../src/client/responses.js';

/** The console API's prefix. */
export const API_BASE = '/api/v1';

/** A refused call: the HTTP status, the spec's exact `error` string and its `detail`. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly error: string,
    readonly detail: Failure['detail'],
    /** `Retry-After` in seconds, when sent (429 lockout). */
    readonly retryAfterS: number | null,
  ) {
    super(error);
  }

  /** The error and its detail as one readable line. */
  describe(): string {
    const d = this.detail;
    if (d === undefined) return this.error;
    if (typeof d === 'string') return `${this.error}: ${d}`;
    return `${this.error}: ${d.map((f) => `${f.path} ${f.message}`).join('; ')}`;
  }
}

let csrfToken: string | null = null;

/** Keeps the session's CSRF token (from sign-in or `GET /session`) in memory; null forgets it. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Options of one call. */
export interface CallOptions {
  readonly query?: Readonly<Record<string, string | number | undefined | null>>;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A successful answer: `data` and the response headers the caller may need (ETag). */
export interface Answer<T> {
  readonly data: T;
  readonly headers: Headers;
}

/**
 * Calls `method path` on the console API and returns the envelope's `data`.
 * @throws ApiError for any non-2xx answer (with the envelope's `error` and `detail`).
 */
export async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
  const url = new URL(`${API_BASE}${path}`, window.location.origin);
  for (const [k, v] of Object.entries(options.query ?? {}))
    if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  const res = await fetch(url, {
    method,
    headers,
    credentials: 'same-origin',
    cache: 'no-store',
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  let parsed: unknown = null;
  try {
    parsed = await res.json();
  } catch {
    parsed = null;
  }
  const envelope = parsed as { ok?: boolean; data?: T; error?: string; detail?: Failure['detail'] } | null;
  if (!res.ok || envelope?.ok !== true) {
    const retry = res.headers.get('retry-after');
    throw new ApiError(
      res.status,
      envelope?.error ?? `HTTP ${res.status}`,
      envelope?.detail,
      retry !== null && /^\d+$/.test(retry) ? Number(retry) : null,
    );
  }
  return { data: envelope.data as T, headers: res.headers };
}

/** `call` returning `data` only. */
export async function get<T>(path: string, query?: CallOptions['query']): Promise<T> {
  return (await call<T>('GET', path, query ? { query } : {})).data;
}

/** POST/PUT/DELETE returning `data` only. */
export async function send<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, options: CallOptions = {}): Promise<T> {
  return (await call<T>(method, path, options)).data;
}
