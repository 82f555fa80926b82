/**
 * @module server/auth/result-tokens: single-use result tokens (spec §3 rule 4, §4 POST /results/fetch;
 * design notes "Result token"): HS256 JWT with `sub` (evaluation id), `org`, `jti`, `iat`, `exp = iat + 900`.
 */
import { randomUUID, webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, decodeJwt } from 'jose';

/** Claims of a verified token. */
export interface ResultTokenClaims {
  readonly sub: string;
  readonly org: string;
  readonly jti: string;
  readonly exp: number;
}

/** Outcome of checking a presented token. */
export type TokenCheck =
  | { readonly ok: true; readonly claims: ResultTokenClaims }
  | { readonly ok: false; readonly reason: 'malformed' | 'invalid' };

/** Issues and verifies result tokens with a server-derived HS256 key. */
export class ResultTokens {
  /**
   * The key imported once as a WebCrypto key: given raw bytes, jose imports them again on every
   * sign and verify (~1.5% of the main thread's time under batch load).
   */
  private readonly key: Promise<webcrypto.CryptoKey>;

  constructor(
    secret: Uint8Array,
    private readonly ttlS: number,
  ) {
    this.key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  /** Issues a token for an evaluation, valid `ttlS` seconds from `nowS`. */
  async issue(evaluationId: string, orgId: string, nowS: number): Promise<string> {
    return new SignJWT({ org: orgId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(evaluationId)
      .setJti(randomUUID())
      .setIssuedAt(nowS)
      .setExpirationTime(nowS + this.ttlS)
      .sign(await this.key);
  }

  /**
   * Checks a token: `malformed` (400 `Malformed token`) when it is not a JWT or its payload lacks `sub`;
   * `invalid` (401) for a bad signature, another algorithm than HS256, missing `jti`/`org`, or expiry.
   */
  async check(token: string, nowS: number): Promise<TokenCheck> {
    let payload: { sub?: unknown };
    try {
      payload = decodeJwt(token);
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') return { ok: false, reason: 'malformed' };
    try {
      const { payload: verified } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'],
        requiredClaims: ['sub', 'jti', 'exp', 'iat'],
        currentDate: new Date(nowS * 1000),
        clockTolerance: 0,
      });
      if (typeof verified['org'] !== 'string' || typeof verified.jti !== 'string')
        return { ok: false, reason: 'invalid' };
      return { ok: true, claims: { sub: verified.sub!, org: verified['org'], jti: verified.jti, exp: verified.exp! } };
    } catch {
      return { ok: false, reason: 'invalid' };
    }
  }
}
