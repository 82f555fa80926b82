/**
 * @module store/webhooks/lmdb: WebhooksRepository on LMDB (`webhooks`: `org\0webhook`; `deliveries`:
 * `webhook\0delivery` → delivery, the log; `outbox`: `webhook\0delivery` → org id, pending ones).
 * Delivery ids sort by creation time, so an endpoint's outbox and log are in creation order.
 */
import type { DeliveryRecord, WebhookRecord } from '../../model/records.js';
import type { EndpointRef, WebhooksRepository } from './repository.js';
import type { LmdbTables } from '../lmdb/tables.js';
import { k } from '../lmdb/tables.js';
import { allEntries, prefixKeys, prefixRange } from '../lmdb/ranges.js';

/** Webhook endpoints, outbox and deliveries in LMDB. */
export class LmdbWebhooks implements WebhooksRepository {
  constructor(private readonly t: LmdbTables) {}

  async create(record: WebhookRecord, maxPerOrg: number): Promise<boolean> {
    const created = await this.t.root.transaction(() => {
      let count = 0;
      for (const _ of prefixKeys(this.t.webhooks, [record.org_id])) count++;
      if (count >= maxPerOrg) return false;
      void this.t.webhooks.put(k(record.org_id, record.webhook_id), record);
      return true;
    });
    if (created) await this.t.flushed();
    return created;
  }

  get(orgId: string, webhookId: string): WebhookRecord | undefined {
    return this.t.webhooks.get(k(orgId, webhookId));
  }

  list(orgId: string): WebhookRecord[] {
    return [...prefixRange(this.t.webhooks, [orgId])].map((e) => e.value);
  }

  async delete(orgId: string, webhookId: string): Promise<boolean> {
    const deleted = await this.t.root.transaction(() => {
      if (this.t.webhooks.get(k(orgId, webhookId)) === undefined) return false;
      void this.t.webhooks.remove(k(orgId, webhookId));
      for (const key of [...prefixKeys(this.t.outbox, [webhookId])]) void this.t.outbox.remove(key);
      return true;
    });
    if (deleted) await this.t.flushed();
    return deleted;
  }

  getDelivery(webhookId: string, deliveryId: string): DeliveryRecord | undefined {
    return this.t.deliveries.get(k(webhookId, deliveryId));
  }

  deliveries(webhookId: string, limit: number): DeliveryRecord[] {
    return [...prefixRange(this.t.deliveries, [webhookId], { reverse: true, limit })].map((e) => e.value);
  }

  nextPending(webhookId: string): DeliveryRecord | undefined {
    const settled: string[] = [];
    let due: DeliveryRecord | undefined;
    for (const key of prefixKeys(this.t.outbox, [webhookId])) {
      const d = this.t.deliveries.get(key);
      if (d && d.status === 'pending') {
        due = d;
        break;
      }
      settled.push(key);
    }
    // Stale entries (a settled delivery whose removal did not land) are dropped; a failed removal only
    // leaves them for the next call, which skips them again.
    if (settled.length > 0) {
      this.t.outbox
        .transaction(() => {
          for (const key of settled) void this.t.outbox.remove(key);
        })
        .catch(() => undefined);
    }
    return due;
  }

  async recordAttempt(orgId: string, delivery: DeliveryRecord, disableReason: string | null): Promise<void> {
    const key = k(delivery.webhook_id, delivery.delivery_id);
    await this.t.root.transaction(() => {
      void this.t.deliveries.put(key, delivery);
      if (delivery.status !== 'pending') void this.t.outbox.remove(key);
      if (disableReason !== null) {
        const endpoint = this.t.webhooks.get(k(orgId, delivery.webhook_id));
        if (endpoint)
          void this.t.webhooks.put(k(orgId, delivery.webhook_id), {
            ...endpoint,
            status: 'disabled',
            disabled_reason: disableReason,
          });
      }
    });
  }

  async requeue(
    orgId: string,
    webhookId: string,
    deliveryId: string,
    nowMs: number,
  ): Promise<DeliveryRecord | undefined> {
    const key = k(webhookId, deliveryId);
    const next = await this.t.root.transaction(() => {
      const d = this.t.deliveries.get(key);
      if (!d || d.org_id !== orgId) return undefined;
      const requeued: DeliveryRecord = { ...d, status: 'pending', next_attempt_at: nowMs };
      void this.t.deliveries.put(key, requeued);
      void this.t.outbox.put(key, orgId);
      return requeued;
    });
    if (next) await this.t.flushed();
    return next;
  }

  async enqueue(
    orgId: string,
    build: (endpoints: readonly WebhookRecord[]) => readonly DeliveryRecord[],
  ): Promise<{ webhookIds: readonly string[] }> {
    const webhookIds = await this.t.root.transaction(() => enqueueDeliveries(this.t, build(this.list(orgId))));
    if (webhookIds.length > 0) await this.t.flushed();
    return { webhookIds };
  }

  endpointsWithPending(): EndpointRef[] {
    const seen = new Map<string, string>();
    for (const { key, value: orgId } of allEntries(this.t.outbox)) {
      const webhookId = key.slice(0, key.indexOf('\u0000'));
      if (!seen.has(webhookId)) seen.set(webhookId, orgId);
    }
    return [...seen].map(([webhookId, orgId]) => ({ orgId, webhookId }));
  }
}

/**
 * Writes `deliveries` into the delivery log and the outbox (inside the caller's write transaction:
 * the evaluation repository's terminal commit, `enqueue`). @returns the endpoints that got one.
 */
export function enqueueDeliveries(t: LmdbTables, deliveries: readonly DeliveryRecord[]): string[] {
  const ids = new Set<string>();
  for (const d of deliveries) {
    const key = k(d.webhook_id, d.delivery_id);
    void t.deliveries.put(key, d);
    void t.outbox.put(key, d.org_id);
    ids.add(d.webhook_id);
  }
  return [...ids];
}
