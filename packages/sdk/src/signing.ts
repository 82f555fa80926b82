/** @module sdk/signing: the request signature of the public API (`X-Service-Signature`, design notes "Request signature"). */
import { createHash, createHmac } from 'node:crypto';

/**
 * `X-Service-Signature` value for one request: `t=<t>,v1=<hex HMAC-SHA256(secret, t.METHOD.path.body)>`.
 * The HMAC key is the whole secret string as UTF-8 (prefix `gov_sig_` included).
 * @param secret the key's signing secret (`<prefix>_sig_<64 hex>`)
 * @param t unix time in seconds; the server refuses one more than 300 s away from its clock
 * @param method HTTP method (upper-cased here)
 * @param pathWithQuery the full path from `/api/public/v1`, plus `?query` when there is one, exactly as sent
 * @param body the raw body bytes (empty for none)
 */
export function signRequest(
  secret: string,
  t: number,
  method: string,
  pathWithQuery: string,
  body: string | Uint8Array = '',
): string {
  const v1 = createHmac('sha256', secret)
    .update(`${t}.${method.toUpperCase()}.${pathWithQuery}.`)
    .update(body)
    .digest('hex');
  return `t=${t},v1=${v1}`;
}

/** How long a signed request is remembered to keep the next identical one distinct, in seconds. */
const REMEMBER_S = 2;

/**
 * Signs requests and never sends the same non-GET signature twice from one process. The server refuses a non-GET signature it
 * has already accepted (a replay, 403 `Invalid request signature`); a retry of a POST within the same second,
 * or two identical POSTs in one second, would carry the same signature. Such a request is signed one second
 * later than the last identical one (well inside the server's 300 s tolerance). GETs are exempt on the server.
 */
export class RequestSigner {
  /**
   * Last `t` per digest of (secret, method, path, body) of recent non-GET requests, shared by every signer of
   * the process, so that two clients with one key do not collide either.
   */
  private static readonly recent = new Map<string, number>();

  /**
   * @param secret the signing secret
   * @param clock current time in milliseconds since the epoch
   */
  constructor(
    private readonly secret: string,
    private readonly clock: () => number,
  ) {}

  /** The header value for one attempt (each attempt is signed anew). */
  sign(method: string, pathWithQuery: string, body: string): string {
    const now = Math.floor(this.clock() / 1000);
    const upper = method.toUpperCase();
    if (upper === 'GET' || upper === 'HEAD') return signRequest(this.secret, now, upper, pathWithQuery, body);
    const recent = RequestSigner.recent;
    for (const [key, t] of recent) if (t < now - REMEMBER_S) recent.delete(key);
    const id = createHash('sha256')
      .update(`${this.secret}\n${upper}\n${pathWithQuery}\n`)
      .update(body)
      .digest('base64');
    const last = recent.get(id);
    const t = last !== undefined && last >= now ? last + 1 : now;
    recent.set(id, t);
    return signRequest(this.secret, t, upper, pathWithQuery, body);
  }
}
