/** @module sdk: the public surface of `@gov/sdk` (re-exports only). */
export { GovernanceClient } from './client.js';
export type { ApiResult, ClientOptions, EvaluationRef, SubmittedBatch, WaitOptions } from './client.js';
export type { CallOptions, Sleep } from './transport.js';
export { API_PREFIX } from './transport.js';
export { GovernanceApiError, GovernanceError, GovernanceNetworkError, GovernanceTimeoutError } from './errors.js';
export type { FieldError } from './errors.js';
export {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  IDEMPOTENT_IN_PROGRESS,
  parseRetryAfter,
  REMEDIATION_FAILED,
  retryDecision,
} from './retry.js';
export type { AttemptOutcome, RetryClass, RetryCounts, RetryPolicy } from './retry.js';
export {
  BATCH_BACKOFF_MS,
  BACKOFF_FROM_SCENARIOS,
  DEFAULT_CADENCE_MS,
  pollDelay,
  TERMINAL_STATUSES,
} from './polling.js';
export { RequestSigner, signRequest } from './signing.js';
export { signWebhook, verifyWebhook, WEBHOOK_TOLERANCE_S, WebhookVerificationError } from './webhooks.js';
export type { HeaderSource, VerifyWebhookInput, WebhookEvent, WebhookFailure } from './webhooks.js';
export { SDK_VERSION } from './version.js';
export type * from './types.js';
export type { components, operations, paths } from './generated/openapi.js';
