/**
 * @module sdk/webhooks: verification of the service's webhook deliveries, which follow Standard Webhooks
 * (standardwebhooks.com; docs/api.md "Webhooks"): headers `webhook-id`, `webhook-timestamp` (unix seconds) and
 * `webhook-signature: v1,<base64 HMAC-SHA256(key, id.timestamp.body)>` (several, space-separated, may be sent),
 * where the key is the base64 part of the endpoint's `whsec_` secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a delivery's timestamp may be from now, in seconds, either way (the Standard Webhooks default, 5 min). */
export const WEBHOOK_TOLERANCE_S = 300;

/** Why a delivery was refused; a typed value to branch on. */
export type WebhookFailure =
  'missing_headers' | 'invalid_timestamp' | 'timestamp_out_of_tolerance' | 'no_matching_signature' | 'invalid_payload';

/** A delivery that did not verify: do not act on it (answer 400 or 401). */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(readonly reason: WebhookFailure) {
    super(`webhook verification failed: ${reason}`);
  }
}

/** A verified delivery: `{ type, timestamp, data }`, e.g. `evaluation.complete` (docs/api.md "Webhooks"). */
export interface WebhookEvent {
  readonly type: string;
  readonly timestamp: string;
  readonly data: Record<string, unknown>;
}

/** Request headers as Node's `IncomingMessage.headers`, a fetch `Headers`, or a plain record. */
export type HeaderSource = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Inputs of `verifyWebhook`. */
export interface VerifyWebhookInput {
  /** The endpoint's secret, `whsec_<base64>` (shown once by `POST /webhooks`). */
  readonly secret: string;
  readonly headers: HeaderSource;
  /** The raw request body, exactly as received (do not re-serialise parsed JSON). */
  readonly body: string | Uint8Array;
  /** Allowed clock difference in seconds, either way. Default 300. */
  readonly toleranceS?: number;
  /** Current time in milliseconds. Default `Date.now()`. */
  readonly nowMs?: number;
}

/**
 * Verifies a delivery and returns its parsed payload.
 * @throws WebhookVerificationError with `reason`: headers missing, timestamp not an integer or more than
 *   `toleranceS` away from now (either way, so a captured delivery cannot be replayed later), no `v1` signature
 *   matching (compared in constant time), or a body that is not a JSON object
 */
export function verifyWebhook(input: VerifyWebhookInput): WebhookEvent {
  const id = header(input.headers, 'webhook-id');
  const timestamp = header(input.headers, 'webhook-timestamp');
  const signatures = header(input.headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signatures === undefined)
    throw new WebhookVerificationError('missing_headers');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('invalid_timestamp');
  const nowS = Math.floor((input.nowMs ?? Date.now()) / 1000);
  if (Math.abs(nowS - Number(timestamp)) > (input.toleranceS ?? WEBHOOK_TOLERANCE_S))
    throw new WebhookVerificationError('timestamp_out_of_tolerance');
  const body = typeof input.body === 'string' ? input.body : Buffer.from(input.body).toString('utf8');
  const expected = Buffer.from(signWebhook(input.secret, id, Number(timestamp), body).slice(3), 'base64');
  const match = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || value === undefined) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!match) throw new WebhookVerificationError('no_matching_signature');
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    throw new WebhookVerificationError('invalid_payload');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw new WebhookVerificationError('invalid_payload');
  return payload as WebhookEvent;
}

/**
 * The `webhook-signature` value `v1,<base64>` of a message, as the service signs it; for testing a receiver.
 * @param secret `whsec_<base64>` (the prefix is optional)
 * @param timestampS unix seconds
 */
export function signWebhook(secret: string, messageId: string, timestampS: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampS}.${body}`).digest('base64')}`;
}

/** One header's value (the first of repeated ones), by lower-case name. */
function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const direct = headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const value = Array.isArray(direct) ? (direct as readonly string[])[0] : (direct as string | undefined);
  return value === undefined || value === '' ? undefined : value;
}
