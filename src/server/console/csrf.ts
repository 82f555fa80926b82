/**
 * @module server/console/csrf: the console's CSRF token (docs/console-api.md "CSRF"): an HMAC of the
 * session token, so it needs no storage and stays the same for the whole session. Changes made with
 * the cookie (the browser's ambient credential) must echo it in `X-CSRF-Token`; calls with an
 * `Authorization` header are exempt (OWASP CSRF Prevention Cheat Sheet, "Signed Double-Submit Cookie").
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ApiResponse } from '../http/types.js';
import type { ConsoleCall } from './guard.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';

/** Methods that change something: they need the token when the session came from the cookie. */
const CHANGES: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const HEX64 = /^[0-9a-f]{64}$/;

/** Issues and checks CSRF tokens. */
export class CsrfTokens {
  /** @param key a sub-key of the master secret (`deriveKey(secrets, 'console-csrf')`), 32 bytes. */
  constructor(private readonly key: Buffer) {}

  /** The CSRF token of a session token: HMAC-SHA256, 64 lower-case hex characters. */
  tokenFor(sessionToken: string): string {
    return createHmac('sha256', this.key).update(sessionToken).digest('hex');
  }

  /**
   * The guard's `extra` check: null when the call may proceed, else 403 `CSRF token missing or
   * invalid` (a cookie-authenticated change whose `X-CSRF-Token` is absent or wrong).
   */
  readonly check = (call: ConsoleCall): ApiResponse | null => {
    if (!call.viaCookie || !CHANGES.has(call.req.method)) return null;
    const given = call.req.headers['x-csrf-token']?.trim().toLowerCase() ?? '';
    const valid =
      HEX64.test(given) && timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(this.tokenFor(call.token), 'hex'));
    return valid ? null : fail(API_ERRORS.csrfInvalid, { detail: 'Send the session’s csrf_token in X-CSRF-Token' });
  };
}
