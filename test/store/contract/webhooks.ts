/**
 * @module test/store/contract/webhooks: the contract of WebhooksRepository: the per-organization
 * endpoint limit under concurrency, and the outbox's exactly-once hand-off (deliveries enter it with
 * the evaluation's terminal state, or not at all, and leave it when settled).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../../src/store/store.js';
import type { DeliveryRecord, WebhookRecord } from '../../../src/model/records.js';
import type { BackendUnderTest } from './backend.js';
import { withBackend } from './backend.js';
import {
  advance,
  byCodePoint,
  deliveryRecord,
  evaluationRecord,
  iso,
  ORG,
  ORG_LONG,
  ORG_PREFIXED,
  T0,
  webhookRecord,
} from './fixtures.js';

/** Creates `ids` as endpoints of `orgId`. */
async function endpoints(store: Store, orgId: string, ids: readonly string[]): Promise<WebhookRecord[]> {
  const records = ids.map((id) => webhookRecord(id, orgId));
  for (const r of records) assert.equal(await store.webhooks.create(r, 10), true);
  return records;
}

/** Completes a new evaluation of `orgId`, handing one delivery per endpoint it is given (created `ms` after T0). */
async function complete(
  store: Store,
  evaluationId: string,
  orgId: string,
  ms: number,
  seen?: (endpoints: readonly WebhookRecord[]) => void,
) {
  const record = evaluationRecord(evaluationId, orgId, ['s1']);
  await store.evaluations.create(record);
  const made: DeliveryRecord[] = [];
  const receipt = await store.evaluations.commit({
    record: advance(record, 'complete', [0], ms),
    deliveries: (given) => {
      seen?.(given);
      const active = given.filter((e) => e.status === 'active').sort((x, y) => byCodePoint(x.webhook_id, y.webhook_id));
      made.push(...active.map((e, i) => deliveryRecord(e, evaluationId, ms + i)));
      return made;
    },
  });
  return { receipt, made };
}

/** A delivery after one attempt. */
const attempted = (d: DeliveryRecord, status: DeliveryRecord['status'], code: number | null): DeliveryRecord => ({
  ...d,
  status,
  attempts: [
    ...d.attempts,
    { at: iso(60_000), status_code: code, error: code === null ? 'connect ECONNREFUSED' : null, duration_ms: 12 },
  ],
  next_attempt_at: status === 'pending' ? T0 + 120_000 : null,
});

/** Registers the webhooks suite for `backend`. */
export function webhooksContract(backend: BackendUnderTest): void {
  describe(`webhooks contract (${backend.name})`, () => {
    it("admits exactly maxPerOrg of 20 concurrent creations, counting only the organization's own endpoints", () =>
      withBackend(backend, async ({ store }) => {
        await endpoints(store, ORG_PREFIXED, ['wh_p1', 'wh_p2']);
        const created = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.webhooks.create(webhookRecord(`wh_${String(i).padStart(2, '0')}`, ORG), 5),
          ),
        );
        assert.equal(created.filter(Boolean).length, 5);
        const listed = await store.webhooks.list(ORG);
        assert.equal(listed.length, 5);
        assert.deepEqual(
          listed.map((w) => w.webhook_id).sort(),
          created.flatMap((ok, i) => (ok ? [`wh_${String(i).padStart(2, '0')}`] : [])).sort(),
        );
        assert.equal(await store.webhooks.create(webhookRecord('wh_late', ORG), 5), false);
        assert.equal(await store.webhooks.create(webhookRecord('wh_late', ORG), 6), true);
        assert.equal((await store.webhooks.list(ORG_PREFIXED)).length, 2);
      }));

    it('gets, lists by id and deletes endpoints per organization', () =>
      withBackend(backend, async ({ store }) => {
        const ids = ['wh_b', 'wh_a', `wh_${'l'.repeat(70)}`, 'wh_é'];
        const own = await endpoints(store, ORG, ids);
        await endpoints(store, ORG_PREFIXED, ['wh_x']);
        await endpoints(store, ORG_LONG, ['wh_y']);
        assert.deepEqual(await store.webhooks.get(ORG, 'wh_a'), own[1]);
        assert.equal(await store.webhooks.get(ORG_PREFIXED, 'wh_a'), undefined, "another organization's id space");
        assert.deepEqual(
          (await store.webhooks.list(ORG)).map((w) => w.webhook_id),
          [...ids].sort(byCodePoint),
        );
        assert.deepEqual(
          (await store.webhooks.list(ORG_LONG)).map((w) => w.webhook_id),
          ['wh_y'],
        );
        assert.equal(await store.webhooks.delete(ORG_PREFIXED, 'wh_a'), false);
        assert.equal(await store.webhooks.delete(ORG, 'wh_a'), true);
        assert.equal(await store.webhooks.delete(ORG, 'wh_a'), false);
        assert.equal(await store.webhooks.get(ORG, 'wh_a'), undefined);
        assert.deepEqual(
          (await store.webhooks.list(ORG)).map((w) => w.webhook_id),
          ids.filter((id) => id !== 'wh_a').sort(byCodePoint),
        );
      }));

    it('enqueues one delivery per endpoint with the terminal state, and hands them out oldest first until settled', () =>
      withBackend(backend, async ({ store }) => {
        const [wh1, wh2] = await endpoints(store, ORG, ['wh_1', 'wh_2']);
        await endpoints(store, ORG_PREFIXED, ['wh_other']);
        let given: string[] = [];
        const first = await complete(store, 'ev_1', ORG, 1_000, (e) => {
          given = e.map((w) => w.webhook_id).sort();
        });
        assert.deepEqual(given, ['wh_1', 'wh_2'], "the organization's endpoints, as stored");
        assert.deepEqual([...first.receipt.webhookIds].sort(), ['wh_1', 'wh_2']);
        const second = await complete(store, 'ev_2', ORG, 2_000);
        const [d1a, d2a] = first.made;
        const [d1b] = second.made;
        assert.ok(d1a && d2a && d1b && wh1 && wh2);
        assert.deepEqual(await store.webhooks.getDelivery('wh_1', d1a.delivery_id), d1a);
        assert.deepEqual(await store.webhooks.nextPending('wh_1'), d1a);
        assert.deepEqual(await store.webhooks.nextPending('wh_2'), d2a);
        assert.equal(await store.webhooks.nextPending('wh_other'), undefined);
        assert.deepEqual(await sortedRefs(store), [
          { orgId: ORG, webhookId: 'wh_1' },
          { orgId: ORG, webhookId: 'wh_2' },
        ]);
        assert.equal((await store.stats()).outbox, 4);

        // A failed attempt that will be retried stays first in line; a delivered one leaves.
        const retry = attempted(d1a, 'pending', 503);
        await store.webhooks.recordAttempt(ORG, retry, null);
        assert.deepEqual(await store.webhooks.nextPending('wh_1'), retry);
        const delivered = attempted(retry, 'delivered', 200);
        await store.webhooks.recordAttempt(ORG, delivered, null);
        assert.deepEqual(await store.webhooks.nextPending('wh_1'), d1b);
        assert.deepEqual(await store.webhooks.getDelivery('wh_1', d1a.delivery_id), delivered);
        await store.webhooks.recordAttempt(ORG, attempted(d1b, 'failed', 500), null);
        assert.equal(await store.webhooks.nextPending('wh_1'), undefined);
        assert.deepEqual(await sortedRefs(store), [{ orgId: ORG, webhookId: 'wh_2' }]);
        assert.equal((await store.stats()).outbox, 2, 'the outbox gauge counts pending deliveries only');
        assert.equal((await store.webhooks.get(ORG, 'wh_1'))?.status, 'active');

        // The log: newest first, at most `limit`.
        assert.deepEqual(
          (await store.webhooks.deliveries('wh_1', 10)).map((d) => d.delivery_id),
          [d1b.delivery_id, d1a.delivery_id],
        );
        assert.deepEqual(
          (await store.webhooks.deliveries('wh_1', 1)).map((d) => d.status),
          ['failed'],
        );
        assert.deepEqual(await store.webhooks.deliveries('wh_other', 10), []);

        // Manual redelivery puts a settled one back, due now; only for its own organization.
        assert.equal(await store.webhooks.requeue(ORG_PREFIXED, 'wh_1', d1a.delivery_id, T0 + 90_000), undefined);
        assert.equal(await store.webhooks.requeue(ORG, 'wh_1', 'msg_unknown', T0 + 90_000), undefined);
        assert.equal(await store.webhooks.nextPending('wh_1'), undefined);
        const requeued = await store.webhooks.requeue(ORG, 'wh_1', d1a.delivery_id, T0 + 90_000);
        assert.deepEqual(requeued, { ...delivered, status: 'pending', next_attempt_at: T0 + 90_000 });
        assert.deepEqual(await store.webhooks.nextPending('wh_1'), requeued);
        assert.deepEqual(await sortedRefs(store), [
          { orgId: ORG, webhookId: 'wh_1' },
          { orgId: ORG, webhookId: 'wh_2' },
        ]);

        // 410 Gone: settled, and the endpoint disabled in the same write.
        await store.webhooks.recordAttempt(ORG, attempted(d2a, 'failed', 410), 'endpoint answered 410 Gone');
        assert.deepEqual(await store.webhooks.get(ORG, 'wh_2'), {
          ...wh2,
          status: 'disabled',
          disabled_reason: 'endpoint answered 410 Gone',
        });
        assert.deepEqual(
          await store.webhooks.nextPending('wh_2'),
          second.made[1],
          'the next one of the disabled endpoint',
        );
        const third = await complete(store, 'ev_3', ORG, 3_000);
        assert.deepEqual(
          third.receipt.webhookIds,
          ['wh_1'],
          'a disabled endpoint gets nothing (the caller decides, from the endpoints as stored)',
        );
      }));

    it('enqueues nothing when the deliveries throw, and nothing for a non-terminal state', () =>
      withBackend(backend, async ({ store }) => {
        await endpoints(store, ORG, ['wh_1']);
        const record = evaluationRecord('ev_1', ORG, ['s1']);
        await store.evaluations.create(record);
        const receipt = await store.evaluations.commit({
          record: advance(record, 'processing'),
          deliveries: (given) => given.map((e) => deliveryRecord(e, 'ev_1', 1)),
        });
        assert.deepEqual(receipt.webhookIds, []);
        await assert.rejects(
          store.evaluations.commit({
            record: advance(record, 'complete', [0]),
            deliveries: (given) => {
              assert.equal(given.length, 1);
              throw new Error('render failed');
            },
          }),
          /render failed/,
        );
        assert.equal(await store.webhooks.nextPending('wh_1'), undefined);
        assert.deepEqual(await store.webhooks.deliveries('wh_1', 10), []);
        assert.deepEqual(await store.webhooks.endpointsWithPending(), []);
        assert.equal((await store.evaluations.get('ev_1'))?.status, 'processing');
      }));

    it("empties an endpoint's outbox when it is deleted, keeping its log", () =>
      withBackend(backend, async ({ store }) => {
        await endpoints(store, ORG, ['wh_1', 'wh_2']);
        const { made } = await complete(store, 'ev_1', ORG, 1_000);
        assert.equal(await store.webhooks.delete(ORG, 'wh_1'), true);
        assert.equal(await store.webhooks.nextPending('wh_1'), undefined);
        assert.deepEqual(await sortedRefs(store), [{ orgId: ORG, webhookId: 'wh_2' }]);
        assert.deepEqual(
          await store.webhooks.deliveries('wh_1', 10),
          made.filter((d) => d.webhook_id === 'wh_1'),
        );
      }));

    it('keeps endpoints, the outbox and the log across a reopen', () =>
      withBackend(backend, async (opened) => {
        await endpoints(opened.store, ORG, ['wh_1']);
        await endpoints(opened.store, ORG_LONG, [`wh_${'l'.repeat(70)}`]);
        const a = await complete(opened.store, 'ev_1', ORG, 1_000);
        const b = await complete(opened.store, 'ev_2', ORG_LONG, 2_000);
        const c = await complete(opened.store, 'ev_3', ORG, 3_000);
        const d = await complete(opened.store, 'ev_4', ORG_LONG, 4_000);
        await opened.store.webhooks.recordAttempt(ORG, attempted(a.made[0]!, 'delivered', 204), null);
        await opened.store.flushed();
        const store = await opened.reopen();
        assert.deepEqual(await store.webhooks.nextPending('wh_1'), c.made[0]);
        assert.deepEqual(await store.webhooks.nextPending(`wh_${'l'.repeat(70)}`), b.made[0]);
        assert.deepEqual(await sortedRefs(store), [
          { orgId: ORG, webhookId: 'wh_1' },
          { orgId: ORG_LONG, webhookId: `wh_${'l'.repeat(70)}` },
        ]);
        assert.deepEqual(
          (await store.webhooks.deliveries('wh_1', 10)).map((d) => d.status),
          ['pending', 'delivered'],
        );
        assert.equal((await store.webhooks.list(ORG)).length, 1);
        assert.deepEqual(
          await store.webhooks.deliveries(`wh_${'l'.repeat(70)}`, 10),
          [d.made[0], b.made[0]],
          'newest first, long keys too',
        );
        assert.deepEqual(await store.webhooks.deliveries(`wh_${'l'.repeat(70)}`, 1), [d.made[0]]);
        assert.deepEqual(
          await store.evaluations.listOpen(),
          [],
          'completed evaluations are not run again, so their events are not enqueued twice',
        );
      }));
  });
}

/** endpointsWithPending, in a stable order (the contract gives none). */
async function sortedRefs(store: Store) {
  return (await store.webhooks.endpointsWithPending()).sort((x, y) => byCodePoint(x.webhookId, y.webhookId));
}
