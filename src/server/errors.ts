/** @module server/errors: the one table of HTTP errors, with the spec's exact `error` strings (spec §7). */
import type { RefusalReason } from './refusal-reasons.js';

/** One error row: HTTP status, the exact `error` string and, for 401, 403 and 429, the default refusal code (logged, never sent). */
export interface ApiErrorRow {
  readonly status: number;
  readonly error: string;
  readonly reason?: RefusalReason;
}

/**
 * Every error the public API can return. Strings are the spec's (§7) where it has a row; rows marked
 * "added" are additive values the spec allows ("new values may appear"). Never reuse a retired string.
 */
export const API_ERRORS = {
  violationIdMalformed: { status: 400, error: 'violation_id must be {blueprint_id}:{policy_code}' },
  malformedToken: { status: 400, error: 'Malformed token' },
  orgContextRequired: { status: 400, error: 'Organization context required' },
  keyAlreadyRevoked: { status: 400, error: 'Key already revoked' },
  keyCannotRotate: { status: 400, error: 'Key cannot be rotated (inactive or revoked)' },
  idempotencyKeyInvalid: { status: 400, error: 'Invalid Idempotency-Key' }, // added (issue 19): not 1-255 printable ASCII characters
  missingAuthorization: {
    status: 401,
    error: 'Missing or invalid Authorization header',
    reason: 'missing_authorization',
  },
  invalidKeyFormat: { status: 401, error: 'Invalid API key format', reason: 'bad_key_format' },
  invalidKey: { status: 401, error: 'Invalid or expired API key', reason: 'unknown_key' },
  keyContextMissing: { status: 401, error: 'API key context missing', reason: 'org_missing' },
  sessionRequired: { status: 401, error: 'Session authentication required', reason: 'session_required' },
  invalidResultToken: {
    status: 401,
    error: 'Invalid, expired, or already-used result token',
    reason: 'bad_result_token',
  },
  browserRefused: { status: 403, error: 'Browser access not allowed', reason: 'browser' },
  ipNotAllowed: { status: 403, error: 'IP address not allowed', reason: 'ip_not_allowed' },
  missingSignature: { status: 403, error: 'Missing request signature', reason: 'missing_signature' },
  invalidSignature: { status: 403, error: 'Invalid request signature', reason: 'bad_signature' },
  orgMismatch: { status: 403, error: 'org_id does not match API key organization', reason: 'org_mismatch' },
  evaluationForbidden: { status: 403, error: 'Not authorized for this evaluation', reason: 'org_mismatch' },
  lacksEvaluate: { status: 403, error: 'Key lacks governance:evaluate permission', reason: 'permission_denied' },
  lacksRead: { status: 403, error: 'Key lacks governance:read permission', reason: 'permission_denied' }, // added
  lacksWebhooks: { status: 403, error: 'Key lacks webhooks:manage permission', reason: 'permission_denied' }, // added
  lacksManage: { status: 403, error: 'Key lacks governance:manage permission', reason: 'permission_denied' }, // added (issue 17)
  notAuthorized: { status: 403, error: 'Not authorized', reason: 'permission_denied' },
  csrfInvalid: { status: 403, error: 'CSRF token missing or invalid', reason: 'csrf_invalid' }, // added (issue 18): console change by cookie without X-CSRF-Token
  scenarioNotFound: { status: 404, error: 'Scenario not found' },
  blueprintNotFound: { status: 404, error: 'Blueprint not found' },
  evaluationNotFound: { status: 404, error: 'Evaluation not found' },
  unknownScenarioIds: { status: 404, error: 'Unknown scenario_ids not found in this organization' }, // `: <ids>` appended
  keyNotFound: { status: 404, error: 'Key not found' },
  routeNotFound: { status: 404, error: 'Not found' }, // added
  invalidCredentials: { status: 401, error: 'Invalid email or password', reason: 'bad_credentials' }, // added: console login
  policyNotFound: { status: 404, error: 'Policy not found' }, // added
  violationNotFound: { status: 404, error: 'Violation not found' }, // added
  webhookNotFound: { status: 404, error: 'Webhook not found' }, // added
  deliveryNotFound: { status: 404, error: 'Delivery not found' }, // added
  waiverNotFound: { status: 404, error: 'Waiver not found' }, // added (issue 17)
  ruleNotFound: { status: 404, error: 'Rule not found' }, // added (issue 17)
  webhookDisabled: { status: 409, error: 'Webhook is disabled' }, // added: redelivery to a disabled endpoint
  idempotencyInProgress: { status: 409, error: 'Idempotent request in progress' }, // added (issue 19): the key's first request still runs; honour Retry-After
  idempotencyKeyReused: { status: 422, error: 'Idempotency-Key reused with a different request' }, // added (issue 19)
  methodNotAllowed: { status: 405, error: 'Method not allowed' }, // added
  settingsVersionMismatch: { status: 412, error: 'Settings version mismatch' }, // added (issue 17): If-Match of PUT /governance/settings
  bodyTooLarge: { status: 413, error: 'Request body too large' },
  invalidBody: { status: 422, error: 'Invalid request body' },
  rateLimited: { status: 429, error: 'Rate limit exceeded', reason: 'rate_limited' },
  signInThrottled: { status: 429, error: 'Too many sign-in attempts', reason: 'sign_in_throttled' }, // added (issue 18): console sign-in locked, honour Retry-After
  signInBusy: { status: 429, error: 'Too many sign-ins in progress', reason: 'sign_in_busy' }, // added (issue 31): SIGN_IN_CONCURRENCY verifications running, honour Retry-After
  remediationFailed: { status: 500, error: 'Remediation generation failed' },
  internal: { status: 500, error: 'Internal server error' },
  overloaded: { status: 503, error: 'Evaluation capacity exhausted' }, // added: pool queue full, honour Retry-After
  storeUnavailable: { status: 503, error: 'Service temporarily unavailable' }, // added: cluster mode, Redis unreachable; retry after Retry-After
  shuttingDown: { status: 503, error: 'Service is shutting down' }, // added: graceful shutdown, retry (on another node) after Retry-After
} as const satisfies Record<string, ApiErrorRow>;

/** A name of the table. */
export type ApiErrorName = keyof typeof API_ERRORS;

export type { FieldError } from '../api/field-error.js';
