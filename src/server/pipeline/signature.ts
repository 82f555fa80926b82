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
import type { ApiResponse } from '../http/types.js';
import { isPromise } from '../../store/awaitable.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';

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
  return function checkSignature(req, ctx) {
    const header = req.headers['x-service-signature'];
    if (header === undefined || header.trim() === '') return MISSING;
    const parsed = parseSignatureHeader(header);
    if (!parsed) return MALFORMED;
    const nowS = Math.floor(now() / 1000);
    if (Math.abs(nowS - parsed.t) > toleranceS) return STALE;
    const key = ctx.key!;
    let secret = secrets.get(key.key_id);
    if (secret === undefined) {
      secret = new HmacSha256Key(keys.signingSecret(key.key_id));
      secrets.set(key.key_id, secret);
    }
    const target = req.query === '' ? req.path : `${req.path}?${req.query}`;
    secret.digestInto(`${parsed.t}.${req.method}.${target}.`, req.body, digest);
    const matched = parsed.v1.find((v) => candidate.write(v, 'hex') === 32 && timingSafeEqual(candidate, digest));
    if (matched === undefined) return MISMATCH;
    if (req.method === 'GET' || req.method === 'HEAD') return null;
    const accepted = replay.accept(matched, parsed.t, nowS);
    return isPromise(accepted) ? accepted.then(replayed) : replayed(accepted);
  };
}
