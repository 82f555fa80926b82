/**
 * @module actors/webhooks/dispatcher: supervises one DeliveryActor per endpoint and writes the
 * `evaluation.complete` events into the outbox inside the transaction that completes the evaluation
 * (stored batches only; never ephemeral or inline ones: spec §1, §6).
 */
import { randomBytes } from 'node:crypto';
import type { DeliveryRecord, EvaluationRecord, WebhookRecord } from '../../model/records.js';
import type { WebhooksRepository } from '../../store/webhooks/repository.js';
import type { SendResult } from './send.js';
import type { DeliveryOptions, Sender } from './delivery-actor.js';
import { DeliveryActor } from './delivery-actor.js';
import { sendWebhook } from './send.js';
import { webhookSecret } from './signing.js';
import { childTraceparent } from '../../model/trace-context.js';
import { DeliveryQueue, type DeliveryQueueOptions } from '../cluster/delivery-queue.js';

/** The only event type (spec §6). */
export const EVALUATION_COMPLETE = 'evaluation.complete';

/** Event sent 7 days before a waiver expires (issue 17; docs/governance.md "Waivers"). */
export const WAIVER_EXPIRING = 'waiver.expiring';

/** Every event an endpoint can subscribe to. */
export const WEBHOOK_EVENTS: readonly string[] = [EVALUATION_COMPLETE, WAIVER_EXPIRING];

/** Message ids sort by creation time: `msg_<12 hex ms><8 hex random>`. */
export function messageId(nowMs: number): string {
  return `msg_${nowMs.toString(16).padStart(12, '0')}${randomBytes(4).toString('hex')}`;
}

/** Supervisor of delivery actors. */
export class WebhookDispatcher {
  private readonly actors = new Map<string, DeliveryActor>();
  private readonly sender: Sender;

  constructor(
    private readonly store: WebhooksRepository,
    private readonly webhookKey: Buffer,
    private readonly options: DeliveryOptions,
    private readonly now: () => number,
    private readonly onAttempt: (result: SendResult, delivery: DeliveryRecord) => void = () => undefined,
    /** A delivery actor's drain failed outside the send (a failed write): logged and counted by the caller. */
    private readonly onFailure: (error: unknown) => void = () => undefined,
    /** Cluster mode: deliveries run as jobs on the shared queue (actors/cluster/delivery-queue) instead of in actors. */
    cluster: DeliveryQueueOptions | null = null,
  ) {
    this.sender = (url, headers, body) =>
      sendWebhook(url, headers, body, { timeoutMs: options.timeoutMs, allowPrivate: options.allowPrivate });
    this.remote =
      cluster &&
      new DeliveryQueue(
        store,
        { store, send: this.sender, options, now, onAttempt, secretOf: (id) => this.secretOf(id) },
        cluster,
        onFailure,
      );
  }

  /** Cluster mode's delivery queue, or null (one process: actors). */
  private readonly remote: DeliveryQueue | null;

  /** The secret of an endpoint (shown once at registration; derived, never stored). */
  secretOf(webhookId: string): string {
    return webhookSecret(this.webhookKey, webhookId);
  }

  /**
   * The deliveries of a terminal evaluation's events: one per active endpoint of `endpoints` (the
   * organization's, read in the transaction that makes the evaluation terminal, which stores these in
   * the outbox) subscribed to `evaluation.complete`. Ephemeral batches and errors produce none. An
   * evaluation with a trace context gives each delivery a `traceparent` in its trace (a new parent-id).
   */
  deliveriesFor(record: EvaluationRecord, endpoints: readonly WebhookRecord[]): DeliveryRecord[] {
    if (record.kind !== 'stored' || record.status !== 'complete') return [];
    const subscribed = endpoints.filter((e) => e.status === 'active' && e.events.includes(EVALUATION_COMPLETE));
    if (subscribed.length === 0) return [];
    const nowMs = this.now();
    const payload = JSON.stringify({
      type: EVALUATION_COMPLETE,
      timestamp: new Date(nowMs).toISOString(),
      data: {
        evaluation_id: record.evaluation_id,
        status: record.status,
        total_scenarios: record.total_scenarios,
        scenarios: record.scenarios,
      },
    });
    return subscribed.map((e) => ({
      delivery_id: messageId(nowMs),
      webhook_id: e.webhook_id,
      org_id: e.org_id,
      event_type: EVALUATION_COMPLETE,
      evaluation_id: record.evaluation_id,
      payload,
      status: 'pending',
      attempts: [],
      next_attempt_at: nowMs,
      created_at: new Date(nowMs).toISOString(),
      ...(record.traceparent === undefined ? {} : { traceparent: childTraceparent(record.traceparent) }),
    }));
  }

  /**
   * Sends event `type` with `data` to every active endpoint of the organization subscribed to it:
   * the deliveries enter the outbox atomically with the read of the endpoints, durably, and the
   * endpoints' actors (or queue jobs) are woken. `subject` is stored as the delivery's
   * `evaluation_id` (the waiver id of a `waiver.expiring`). @returns how many deliveries.
   */
  async announce(orgId: string, type: string, subject: string, data: unknown): Promise<number> {
    let count = 0;
    const { webhookIds } = await this.store.enqueue(orgId, (endpoints) => {
      const subscribed = endpoints.filter((e) => e.status === 'active' && e.events.includes(type));
      const nowMs = this.now();
      const payload = JSON.stringify({ type, timestamp: new Date(nowMs).toISOString(), data });
      count = subscribed.length;
      return subscribed.map((e) => ({
        delivery_id: messageId(nowMs),
        webhook_id: e.webhook_id,
        org_id: e.org_id,
        event_type: type,
        evaluation_id: subject,
        payload,
        status: 'pending',
        attempts: [],
        next_attempt_at: nowMs,
        created_at: new Date(nowMs).toISOString(),
      }));
    });
    if (webhookIds.length > 0) this.wake(orgId, webhookIds);
    return count;
  }

  /** Wakes the actor of each endpoint that has new work (after the enqueuing transaction committed). */
  wake(orgId: string, webhookIds: readonly string[]): void {
    if (this.remote) {
      this.remote.wake(orgId, webhookIds).catch(this.onFailure); // the sweep adds them later if this fails
      return;
    }
    for (const id of webhookIds) this.actor(orgId, id).tell({ type: 'wake' });
  }

  /** Crash recovery: starts an actor for every endpoint with pending deliveries. @returns how many. */
  async recover(): Promise<number> {
    if (this.remote) {
      this.remote.start();
      return this.remote.sweep();
    }
    const endpoints = await this.store.endpointsWithPending();
    for (const { orgId, webhookId } of endpoints) this.actor(orgId, webhookId).tell({ type: 'wake' });
    return endpoints.length;
  }

  /** Requeues a delivery now (manual redelivery). */
  async redeliver(orgId: string, webhookId: string, deliveryId: string): Promise<DeliveryRecord | undefined> {
    const next = await this.store.requeue(orgId, webhookId, deliveryId, this.now());
    if (next) this.wake(orgId, [webhookId]);
    return next;
  }

  /** Stops and forgets an endpoint's actor (endpoint deleted). */
  forget(webhookId: string): void {
    this.actors.get(webhookId)?.tell({ type: 'stop' });
    this.actors.delete(webhookId);
  }

  /** Resolves when no actor is sending (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.actors.values()].map((a) => a.settled()));
    await this.remote?.settled();
  }

  /** Stops every actor (or, in cluster mode, the queue's consumer after its running attempts); pending deliveries stay in the outbox. */
  async stop(): Promise<void> {
    for (const a of this.actors.values()) a.tell({ type: 'stop' });
    await this.remote?.close();
  }

  private actor(orgId: string, webhookId: string): DeliveryActor {
    let a = this.actors.get(webhookId);
    if (!a) {
      a = new DeliveryActor(
        this.store,
        orgId,
        webhookId,
        this.secretOf(webhookId),
        this.sender,
        this.options,
        this.now,
        this.onAttempt,
        this.onFailure,
      );
      this.actors.set(webhookId, a);
    }
    return a;
  }
}
