/**
 * @module server/refusal-reasons: why a request was refused with 401, 403 or 429, as a typed code.
 * Every such refusal is logged once, at `warn`, with its code and the key id when known (issue 19,
 * section 6; docs/operations.md "Logs"), never with a key, secret, signature or token. The codes
 * are set where the refusal is decided (a row of server/errors.ts, or the stage's override), never
 * parsed out of messages; they are stable, and a retired code is never reused.
 */

/** Every refusal code, with what it means (docs/operations.md "Refusal reasons" lists the same). */
export const REFUSAL_REASONS = {
  missing_authorization: 'no `Authorization: Bearer` header, or not of that form',
  bad_key_format: 'the presented key is not `<prefix>_live_<48 hex>`',
  unknown_key: 'no such key (or its hash does not match)',
  key_revoked: 'the key was revoked',
  key_expired: 'the key passed its `expires_at`',
  org_missing: "the key's organization no longer exists",
  browser: 'a browser request (Origin, Sec-Fetch-*, OPTIONS)',
  ip_not_allowed: "the client address is outside the key's IP allowlist",
  missing_signature: 'no `X-Service-Signature` header',
  malformed_signature: '`X-Service-Signature` is not `t=<unix s>,v1=<hex>`',
  stale_signature: '`t=` is outside SIGNATURE_TOLERANCE_S of the server clock',
  bad_signature: 'no `v1=` matches the request',
  replay: 'a non-GET signature already accepted within the tolerance window',
  permission_denied: 'the key (or console role) lacks the permission of the route',
  org_mismatch: "the request names another organization than the key's",
  bad_result_token: 'the result token is invalid, expired, already used or of another organization',
  session_required: 'a console request without a valid session',
  csrf_invalid: 'a console change without the session’s X-CSRF-Token',
  bad_credentials: 'a console sign-in with a wrong email or password',
  rate_limited: "the key's minute or hour budget is spent",
  sign_in_throttled: 'too many failed console sign-ins from this address or for this account',
  sign_in_busy: 'SIGN_IN_CONCURRENCY console sign-ins are being verified on this node already',
} as const;

/** A refusal code (a key of REFUSAL_REASONS). */
export type RefusalReason = keyof typeof REFUSAL_REASONS;

/** HTTP statuses whose every response carries a refusal reason. */
export const REFUSAL_STATUSES: readonly number[] = [401, 403, 429];
