/** @module server/http/types: the plain request and response every handler sees (no uWS types). */
import type { KeyRecord } from '../../model/records.js';
import type { RefusalReason } from '../refusal-reasons.js';
import type { TraceContext } from '../../model/trace-context.js';

/** A request, fully read and copied out of uWS. */
export interface ApiRequest {
  /** Upper-case method. */
  readonly method: string;
  /** Raw path as sent (not decoded, no query). */
  readonly path: string;
  /** Raw query string without `?` (empty when none). */
  readonly query: string;
  /** Lower-case header names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Peer address of the socket, normalised (IPv4-mapped IPv6 → IPv4). */
  readonly remoteAddress: string;
  /** The client's `X-Request-Id` when valid (model/trace-context REQUEST_ID_PATTERN), else an id generated here; echoed in `X-Request-Id`. */
  readonly requestId: string;
  /** The W3C trace context of a valid `traceparent` header, with this request's span; null (or absent) without one. */
  readonly trace?: TraceContext | null;
  /** Epoch ms when the request was received (from the injected clock). */
  readonly receivedAt: number;
  /**
   * The body as bytes whose ArrayBuffer belongs to this call alone, safe to transfer to a worker:
   * the request's own buffer the first time when it has one, a copy otherwise. Never transfer
   * `body` itself: it may share its buffer (the empty body, a pooled slab).
   */
  takeBody(): Uint8Array;
}

/** Rate-limit state reported in `X-RateLimit-*` headers (spec §8). */
export interface RateState {
  readonly limit: number;
  readonly remaining: number;
  /** Unix seconds when the minute window resets. */
  readonly reset: number;
}

/** What the pipeline learns about a request as it passes the stages. */
export interface RequestContext {
  key: KeyRecord | null;
  watermark: string | null;
  rate: RateState | null;
  /** Path parameters of the matched route, percent-decoded. */
  params: Record<string, string>;
  /** Route template for logs and metrics (`/evaluations/{id}`), `null` when unmatched. */
  template: string | null;
  /** Client address after trusted-proxy handling; set by the IP-allowlist stage when the key has an allowlist. */
  clientIp: string | null;
}

/**
 * A response: status, extra headers and a body (already serialised JSON, as a string or as UTF-8
 * bytes read straight from the store). The adapter adds `Content-Type`, `X-Request-Id` and, when
 * the context carries a rate state, the `X-RateLimit-*` headers.
 */
export interface ApiResponse {
  readonly status: number;
  readonly body: string | Buffer;
  readonly headers?: readonly (readonly [string, string])[];
  /** Close the connection after responding (a 503 while shutting down, a refused upload). */
  readonly close?: boolean;
  /** The error string of an error response (for metrics; not sent separately). */
  readonly error?: string;
  /** Why a 401, 403 or 429 was answered (logged with the key id; never sent). */
  readonly reason?: RefusalReason;
  /** The key id a refusal concerns when `ctx.key` is not set (a revoked or expired key); logged, never sent. */
  readonly keyId?: string;
}
