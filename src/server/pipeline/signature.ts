/**
 * @module server/pipeline/signature: request signatures (spec §5.2; design notes "Request signature").
 * `X-Service-Signature: t=<unix s>,v1=<hex>[,v1=<hex>...]`, v1 = hex HMAC-SHA256(signing secret,
 * `t.METHOD.path?query.body`). `t` must be within the tolerance in both directions (PITFALLS 26);
 * a non-GET signature already accepted inside the window is a replay.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { KeyService } from '../auth/keys.js';
import { HmacSha256Key } from '../auth/hmac-sha256.js';
import type { ReplayGuard } from './replay-guard.js';
import type { Stage } from './types.js';
import type { ApiRequest, ApiResponse } from '../http/types.js';
import type { KeyRecord } from '../../model/records.js';
import { isPromise } from '../../store/awaitable.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';

/** Scratch buffer of the signed text (the event loop runs one check at a time); grown for long URLs. */
let message = new Uint8Array(512);

/** Writes `s` at `at` in `message` when it is all ASCII (its UTF-8 is then its characters); @returns the end, or -1. */
function ascii(s: string, at: number): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return -1;
    message[at + i] = c;
  }
  return at + s.length;
}

/**
 * Writes the signed text `t.METHOD.path[?query].` (UTF-8) into `message` without building a
 * string. @returns its length, or -1 when a part is not ASCII (the caller encodes the string then).
 */
function signedText(t: number, method: string, path: string, query: string): number {
  const need = 16 + method.length + path.length + query.length;
  if (message.length < need) message = new Uint8Array(need * 2);
  let digits = 1;
  for (let v = t; v >= 10; v = Math.floor(v / 10)) digits++;
  for (let i = digits - 1, v = t; i >= 0; i--, v = Math.floor(v / 10)) message[i] = 48 + (v % 10);
  let at = digits;
  message[at++] = 46; // .
  at = ascii(method, at);
  if (at < 0) return -1;
  message[at++] = 46;
  at = ascii(path, at);
  if (at < 0) return -1;
  if (query !== '') {
    message[at++] = 63; // ?
    at = ascii(query, at);
    if (at < 0) return -1;
  }
  message[at++] = 46;
  return at;
}

/** Computes the v1 signature (hex) of a request. Exported for clients, tests and the demo. */
export function computeSignature(
  secret: string,
  t: number | string,
  method: string,
  pathWithQuery: string,
  body: Buffer | string,
): string {
  return signatureDigest(secret, t, method, pathWithQuery, body).toString('hex');
}

/** The raw 32-byte HMAC-SHA256 digest of a request (clients and tests; the server uses HmacSha256Key). */
export function signatureDigest(
  secret: string | Buffer,
  t: number | string,
  method: string,
  pathWithQuery: string,
  body: Buffer | string,
): Buffer {
  const hmac = createHmac('sha256', secret).update(`${t}.${method.toUpperCase()}.${pathWithQuery}.`);
  if (body.length > 0) hmac.update(body);
  return hmac.digest();
}

/** Scratch buffers of the check (the event loop runs one check at a time). */
const digest = Buffer.alloc(32);
const candidate = Buffer.alloc(32);

const CANONICAL = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/;

/** Parses the header into its timestamp and v1 candidates; `null` when malformed. */
export function parseSignatureHeader(header: string): { t: number; v1: string[] } | null {
  const canonical = CANONICAL.exec(header); // what our clients send: one regular expression, no splitting
  if (canonical) return { t: Number(canonical[1]), v1: [canonical[2]!] };
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't') {
      if (!/^\d{1,12}$/.test(value)) return null;
      t = Number(value);
    } else if (name === 'v1') {
      if (/^[0-9a-f]{64}$/.test(value)) v1.push(value);
    }
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

/** The value of a lower-case hex digit's character code, or -1. */
function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** Length of `t=` + `,v1=` + 64 hex: the canonical header is this plus its 1-12 digits. */
const CANONICAL_FIXED = 70;

/**
 * The canonical header (what `CANONICAL` matches, what our clients send), read without a regular
 * expression or any allocation: @returns its timestamp, its one v1 decoded into `into[0..32)`; -1
 * when `header` is not canonical (the general parser decides then).
 */
export function readCanonical(header: string, into: Uint8Array): number {
  const digits = header.length - CANONICAL_FIXED;
  if (digits < 1 || digits > 12 || header.charCodeAt(0) !== 116 /* t */ || header.charCodeAt(1) !== 61 /* = */)
    return -1;
  let t = 0;
  for (let i = 2; i < 2 + digits; i++) {
    const d = header.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    t = t * 10 + d;
  }
  let at = 2 + digits;
  if (
    header.charCodeAt(at) !== 44 /* , */ ||
    header.charCodeAt(at + 1) !== 118 /* v */ ||
    header.charCodeAt(at + 2) !== 49 /* 1 */ ||
    header.charCodeAt(at + 3) !== 61 /* = */
  )
    return -1;
  at += 4;
  for (let i = 0; i < 32; i++, at += 2) {
    const hi = hexDigit(header.charCodeAt(at));
    const lo = hexDigit(header.charCodeAt(at + 1));
    if (hi < 0 || lo < 0) return -1;
    into[i] = (hi << 4) | lo;
  }
  return t;
}

/** The answer to a signature already used: 403 `Invalid request signature` (design notes "Replay"). */
const REPLAYED = fail(API_ERRORS.invalidSignature, {
  detail: 'This signature was already used (replay)',
  reason: 'replay',
});
/** Refusals answered the same way every time (the key id is logged from the request's context). */
const MISSING = fail(API_ERRORS.missingSignature);
const MALFORMED = fail(API_ERRORS.invalidSignature, { reason: 'malformed_signature' });
const STALE = fail(API_ERRORS.invalidSignature, { reason: 'stale_signature' });
const MISMATCH = fail(API_ERRORS.invalidSignature);

/** null when `accepted`, else the replay refusal. */
function replayed(accepted: boolean): ApiResponse | null {
  return accepted ? null : REPLAYED;
}

/** 403 `Missing request signature` / `Invalid request signature`. */
export function verifySignature(keys: KeyService, replay: ReplayGuard, toleranceS: number, now: () => number): Stage {
  const secrets = new Map<string, HmacSha256Key>();
  /** Writes the request's v1 digest (signed at `t`) into `digest`. */
  function sign(req: ApiRequest, key: KeyRecord, t: number): void {
    let secret = secrets.get(key.key_id);
    if (secret === undefined) {
      secret = new HmacSha256Key(keys.signingSecret(key.key_id));
      secrets.set(key.key_id, secret);
    }
    const length = signedText(t, req.method, req.path, req.query);
    if (length >= 0) secret.digestBytesInto(message, length, req.body, digest);
    else {
      const text =
        req.query === '' ? `${t}.${req.method}.${req.path}.` : `${t}.${req.method}.${req.path}?${req.query}.`;
      secret.digestInto(text, req.body, digest);
    }
  }
  /** The replay check of an accepted non-GET signature (`matched`, hex). */
  function once(
    req: ApiRequest,
    matched: string,
    t: number,
    nowS: number,
  ): ApiResponse | null | Promise<ApiResponse | null> {
    if (req.method === 'GET' || req.method === 'HEAD') return null;
    const accepted = replay.accept(matched, t, nowS);
    return isPromise(accepted) ? accepted.then(replayed) : replayed(accepted);
  }
  return function checkSignature(req, ctx) {
    const header = req.headers['x-service-signature'];
    if (header === undefined) return MISSING;
    const nowS = Math.floor(now() / 1000);
    // The canonical form first: no regular expression, no allocation, the candidate decoded in place.
    const t = readCanonical(header, candidate);
    if (t >= 0) {
      if (Math.abs(nowS - t) > toleranceS) return STALE;
      sign(req, ctx.key!, t);
      if (!timingSafeEqual(candidate, digest)) return MISMATCH;
      return once(req, header.slice(header.length - 64), t, nowS);
    }
    if (header.trim() === '') return MISSING;
    const parsed = parseSignatureHeader(header);
    if (!parsed) return MALFORMED;
    if (Math.abs(nowS - parsed.t) > toleranceS) return STALE;
    sign(req, ctx.key!, parsed.t);
    const matched = parsed.v1.find((v) => candidate.write(v, 'hex') === 32 && timingSafeEqual(candidate, digest));
    if (matched === undefined) return MISMATCH;
    return once(req, matched, parsed.t, nowS);
  };
}
