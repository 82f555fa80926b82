/** @module store/webhooks/repository: the webhooks aggregate: endpoints, the outbox of pending deliveries, and the delivery log. */
import type { DeliveryRecord, WebhookRecord } from '../../model/records.js';
import type { Awaitable } from '../awaitable.js';

/** An endpoint with pending deliveries (crash recovery). */
export interface EndpointRef {
  readonly orgId: string;
  readonly webhookId: string;
}

/**
 * Webhook endpoints and deliveries. Deliveries enter the outbox with the evaluation's terminal
 * state (`EvaluationsRepository.commit`), or through `enqueue` for events of no evaluation; the
 * endpoint's delivery actor takes them out in order.
 */
export interface WebhooksRepository {
  /** Stores a new endpoint unless the organization has `maxPerOrg` already (atomic). Resolves once durable. @returns false at the limit. */
  create(record: WebhookRecord, maxPerOrg: number): Promise<boolean>;
  get(orgId: string, webhookId: string): Awaitable<WebhookRecord | undefined>;
  /** An organization's endpoints, by id. */
  list(orgId: string): Awaitable<WebhookRecord[]>;
  /** Deletes an endpoint and empties its outbox (its delivery log stays). @returns false when unknown. */
  delete(orgId: string, webhookId: string): Promise<boolean>;
  getDelivery(webhookId: string, deliveryId: string): Awaitable<DeliveryRecord | undefined>;
  /** An endpoint's deliveries, newest first, at most `limit`. */
  deliveries(webhookId: string, limit: number): Awaitable<DeliveryRecord[]>;
  /** The oldest pending delivery in the endpoint's outbox, or undefined (outbox entries of settled deliveries are dropped). */
  nextPending(webhookId: string): Awaitable<DeliveryRecord | undefined>;
  /**
   * Stores a delivery after an attempt: a settled one (`delivered`/`failed`) leaves the outbox; with
   * `disableReason`, the endpoint is disabled in the same transaction.
   */
  recordAttempt(orgId: string, delivery: DeliveryRecord, disableReason: string | null): Promise<void>;
  /** Puts a delivery back into the outbox as pending, due at `nowMs` (manual redelivery). @returns undefined when unknown or of another organization. */
  requeue(orgId: string, webhookId: string, deliveryId: string, nowMs: number): Promise<DeliveryRecord | undefined>;
  /**
   * Puts the deliveries `build` makes from the organization's endpoints (as stored in the same
   * transaction) into the delivery log and the outbox, atomically, as an evaluation's terminal commit
   * does: for events of no evaluation (`waiver.expiring`, whose deliveries carry the waiver id in
   * `evaluation_id`). `build` may be called more than once (Redis retries while the endpoints
   * change); only the last call's deliveries are stored. Resolves once durable.
   * @returns the endpoints that got a delivery (to wake).
   */
  enqueue(
    orgId: string,
    build: (endpoints: readonly WebhookRecord[]) => readonly DeliveryRecord[],
  ): Promise<{ webhookIds: readonly string[] }>;
  /** Every endpoint with something in its outbox. */
  endpointsWithPending(): Awaitable<EndpointRef[]>;
}
