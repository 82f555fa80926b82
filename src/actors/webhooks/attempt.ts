/**
 * @module actors/webhooks/attempt: one delivery attempt of a webhook event (Standard Webhooks
 * headers, design notes "Webhooks"), recorded in the store before anything else happens to the
 * delivery. Shared by the per-endpoint delivery actor (one process) and cluster mode's delivery jobs.
 */
import type { DeliveryRecord, WebhookRecord } from '../../model/records.js';
import type { WebhooksRepository } from '../../store/webhooks/repository.js';
import type { SendResult } from './send.js';
import { signWebhook } from './signing.js';

/** Delivery settings (config: WEBHOOK_*). */
export interface DeliveryOptions {
  /** Attempts before a delivery is marked `failed` (default 8). */
  readonly maxAttempts: number;
  /** First retry delay in ms; doubles each attempt, with full jitter (default 5000). */
  readonly backoffBaseMs: number;
  /** Longest delay between attempts in ms, also the cap on `Retry-After` (default 1 h). */
  readonly backoffMaxMs: number;
  readonly timeoutMs: number;
  readonly allowPrivate: boolean;
}

/** The transport, injectable for tests of the actor alone. */
export type Sender = (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;

/** Delay before attempt n+1 (n ≥ 1 attempts made): full jitter over base·2^(n−1), capped; `Retry-After` wins when larger. */
export function retryDelay(
  attempts: number,
  options: Pick<DeliveryOptions, 'backoffBaseMs' | 'backoffMaxMs'>,
  retryAfterMs: number | null,
  random: () => number,
): number {
  const ceiling = Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** (attempts - 1));
  const jittered = Math.round(ceiling / 2 + random() * (ceiling / 2));
  return retryAfterMs !== null ? Math.min(options.backoffMaxMs, Math.max(jittered, retryAfterMs)) : jittered;
}

/** What an attempt needs besides the delivery. */
export interface AttemptContext {
  readonly store: WebhooksRepository;
  /** The endpoint's signing secret. */
  readonly secret: string;
  readonly send: Sender;
  readonly options: DeliveryOptions;
  readonly now: () => number;
  readonly onAttempt?: (result: SendResult, delivery: DeliveryRecord) => void;
}

/**
 * Sends `d` (of organization `orgId`) to `endpoint` once (`webhook-id` = the delivery id on every attempt; `traceparent`
 * when the delivery has one), then stores the
 * attempt: `delivered` on a 2xx, `failed` on 410 Gone (which also disables the endpoint) or after
 * `maxAttempts`, else `pending` with the next attempt due after `retryDelay`. @returns the stored
 * delivery. Rejects when the store write fails (the attempt is then made again).
 */
export async function attemptDelivery(
  ctx: AttemptContext,
  orgId: string,
  endpoint: WebhookRecord,
  d: DeliveryRecord,
): Promise<DeliveryRecord> {
  const ts = Math.floor(ctx.now() / 1000);
  const headers: Record<string, string> = {
    'webhook-id': d.delivery_id,
    'webhook-timestamp': String(ts),
    'webhook-signature': signWebhook(ctx.secret, d.delivery_id, ts, d.payload),
  };
  if (d.traceparent !== undefined) headers['traceparent'] = d.traceparent;
  const result = await ctx.send(endpoint.url, headers, d.payload);
  const attempts = [
    ...d.attempts,
    {
      at: new Date(ctx.now()).toISOString(),
      status_code: result.statusCode,
      error: result.error,
      duration_ms: result.durationMs,
    },
  ];
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const gone = result.statusCode === 410;
  const exhausted = attempts.length >= ctx.options.maxAttempts;
  const status: DeliveryRecord['status'] = ok ? 'delivered' : gone || exhausted ? 'failed' : 'pending';
  const next: DeliveryRecord = {
    ...d,
    attempts,
    status,
    next_attempt_at:
      status === 'pending'
        ? ctx.now() + retryDelay(attempts.length, ctx.options, result.retryAfterMs, Math.random)
        : null,
  };
  await ctx.store.recordAttempt(orgId, next, gone ? 'the endpoint answered 410 Gone' : null);
  ctx.onAttempt?.(result, next);
  return next;
}
