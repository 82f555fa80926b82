/**
 * @module server/pipeline/signature: request signatures (spec §5.2; design notes "Request signature").
 * `X-Service-Signature: t=<unix s>,v1=<hex>[,v1=<hex>...]`, v1 = hex HMAC-SHA256(signing secret,
 * `t.METHOD.path?query.body`). `t` must be within the tolerance in both directions (PITFALLS 26);
 * a non-GET signature already accepted inside the window is a replay.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { KeyService } from '../auth/keys.js';
import type { ReplayGuard } from './replay-guard.js';
import type { Stage } from './types.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';

/** Computes the v1 signature (hex) of a request. Exported for clients, tests and the demo. */
export function computeSignature(secret: string, t: number | string, method: string, pathWithQuery: string, body: Buffer | string): string {
  return signatureDigest(secret, t, method, pathWithQuery, body).toString('hex');
}

/**
 * The raw 32-byte HMAC-SHA256 digest of a request (the server compares digests, not hex strings).
 * `secret` is the signing secret, or its prepared form from `hmacKey`.
 */
export function signatureDigest(secret: string | Buffer, t: number | string, method: string, pathWithQuery: string, body: Buffer | string): Buffer {
  const hmac = createHmac('sha256', secret).update(`${t}.${method.toUpperCase()}.${pathWithQuery}.`);
  if (body.length > 0) hmac.update(body);
  return hmac.digest();
}

/**
 * A signing secret prepared as an HMAC key: a key longer than SHA-256's 64-byte block is replaced
 * by its SHA-256 digest (RFC 2104 §2), the step HMAC would otherwise repeat on every request (our
 * `<prefix>_sig_<64 hex>` secrets are longer than a block). Same digests, half the cost.
 */
export function hmacKey(secret: string): Buffer {
  const raw = Buffer.from(secret, 'utf8');
  return raw.length > 64 ? createHash('sha256').update(raw).digest() : raw;
}

/** Parses the header into its timestamp and v1 candidates; `null` when malformed. */
export function parseSignatureHeader(header: string): { t: number; v1: string[] } | null {
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

/** 403 `Missing request signature` / `Invalid request signature`. */
export function verifySignature(keys: KeyService, replay: ReplayGuard, toleranceS: number, now: () => number): Stage {
  const secrets = new Map<string, Buffer>();
  return function checkSignature(req, ctx) {
    const header = req.headers['x-service-signature'];
    if (header === undefined || header.trim() === '') return fail(API_ERRORS.missingSignature);
    const parsed = parseSignatureHeader(header);
    if (!parsed) return fail(API_ERRORS.invalidSignature);
    const nowS = Math.floor(now() / 1000);
    if (Math.abs(nowS - parsed.t) > toleranceS) return fail(API_ERRORS.invalidSignature);
    const key = ctx.key!;
    let secret = secrets.get(key.key_id);
    if (secret === undefined) {
      secret = hmacKey(keys.signingSecret(key.key_id));
      secrets.set(key.key_id, secret);
    }
    const target = req.query === '' ? req.path : `${req.path}?${req.query}`;
    const expected = signatureDigest(secret, parsed.t, req.method, target, req.body);
    const matched = parsed.v1.find((v) => timingSafeEqual(Buffer.from(v, 'hex'), expected));
    if (matched === undefined) return fail(API_ERRORS.invalidSignature);
    if (req.method !== 'GET' && req.method !== 'HEAD' && !replay.accept(matched, parsed.t, nowS)) {
      return fail(API_ERRORS.invalidSignature, { detail: 'This signature was already used (replay)' });
    }
    return null;
  };
}
