/** Webhooks end to end: a real receiver on loopback verifies signatures, sees retries, Retry-After, 410 and exactly the events it should. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importScenario } from '../../src/actors/scenarios.js';
import { signWebhook } from '../../src/actors/webhooks/signing.js';
import { pollEvaluation } from '../../src/client/client.js';
import type {
  EvaluationStatus,
  Reply,
  StoredSubmitResult,
  SubmitResult,
  WebhookCreated,
} from '../../src/client/responses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { redisClusterEnv } from '../helpers/redis-env.js';
import { startReceiver } from '../helpers/receiver.js';
import { bp, m } from '../helpers/blueprints.js';
import {
  dataOf,
  failureOf,
  fieldErrors,
  type DeliveryList,
  type EvaluationCompleteEvent,
  type Webhook,
  type WebhookList,
} from './bodies.js';

const blueprint = bp([m(1, 'util:SetVariable2')]);
const POLL = { delaysMs: [50], timeoutMs: 20_000 };

for (const backend of ['lmdb', 'redis'] as const)
  describe(`webhooks (${backend})`, () => {
    let t: TestServer;
    before(async () => {
      const env = {
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_BACKOFF_BASE_MS: '50',
        WEBHOOK_BACKOFF_MAX_MS: '3000',
      };
      t = await startTestServer({ env: backend === 'redis' ? await redisClusterEnv(env) : env });
      await importScenario(t.server.store.scenarios, t.orgId, 's1', JSON.stringify(blueprint));
    });
    after(() => t.close());

    async function register(url: string) {
      const res = await t.client.call<Reply<WebhookCreated>>('POST', '/webhooks', {
        url,
        events: ['evaluation.complete'],
        description: `test ${url}`,
      });
      assert.equal(res.status, 201, res.raw);
      return dataOf(res);
    }
    async function evaluateStored(tag: string): Promise<string> {
      const submit = await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ['s1'], tag });
      const evaluationId = dataOf(submit).evaluation_id;
      await pollEvaluation<Reply<EvaluationStatus>>(t.client, evaluationId, POLL);
      return evaluationId;
    }

    it('delivers evaluation.complete with a valid signature, retrying after two 500s', async () => {
      const receiver = await startReceiver((n) => ({ status: n <= 2 ? 500 : 204 }));
      const hook = await register(receiver.url);
      assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
      const evaluationId = await evaluateStored('retry');
      await receiver.waitFor(3);
      const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
      assert.equal(ids.size, 1, 'every retry carries the same webhook-id');
      for (const r of receiver.received) {
        const expected = signWebhook(
          hook.secret,
          String(r.headers['webhook-id']),
          Number(r.headers['webhook-timestamp']),
          r.body,
        );
        assert.ok(
          String(r.headers['webhook-signature']).split(' ').includes(expected),
          'signature verifies with the endpoint secret',
        );
      }
      const event = JSON.parse(receiver.received[2]!.body) as EvaluationCompleteEvent;
      assert.equal(event.type, 'evaluation.complete');
      assert.equal(event.data.evaluation_id, evaluationId);
      assert.equal(event.data.status, 'complete');
      assert.equal(event.data.scenarios[0]!.id, 's1');
      await t.server.webhooks.settled();
      const log = await t.client.call<Reply<DeliveryList>>('GET', `/webhooks/${hook.webhook_id}/deliveries`);
      const d = dataOf(log).deliveries[0]!;
      assert.equal(d.status, 'delivered');
      assert.deepEqual(
        d.attempts.map((a) => a.status_code),
        [500, 500, 204],
      );
      assert.ok(d.attempts.every((a) => typeof a.duration_ms === 'number'));
      await t.client.call('DELETE', `/webhooks/${hook.webhook_id}`);
      await receiver.close();
    });

    it("continues the submitting request's W3C trace: same trace-id, a new parent-id, the same on a retry", async () => {
      const receiver = await startReceiver((n) => ({ status: n === 1 ? 503 : 200 }));
      await register(receiver.url);
      const traceId = '0af7651916cd43dd8448eb211c80319c';
      const parentId = 'b7ad6b7169203331';
      const submit = await t.client.call<Reply<StoredSubmitResult>>(
        'POST',
        '/evaluate',
        { scenario_ids: ['s1'], tag: 'traced' },
        { headers: { traceparent: `00-${traceId}-${parentId}-01` } },
      );
      const evaluationId = dataOf(submit).evaluation_id;
      await receiver.waitFor(2);
      const [first, retry] = receiver.received;
      assert.equal((JSON.parse(first!.body) as EvaluationCompleteEvent).data.evaluation_id, evaluationId);
      const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(first!.headers['traceparent']));
      assert.ok(m, String(first!.headers['traceparent']));
      assert.equal(m[1], traceId);
      assert.notEqual(m[2], parentId);
      assert.notEqual(m[2], '0'.repeat(16));
      assert.equal(retry!.headers['traceparent'], first!.headers['traceparent']);
      const record = await t.server.store.evaluations.get(evaluationId);
      assert.match(record?.traceparent ?? '', new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
      await evaluateStored('untraced');
      await receiver.waitFor(3);
      assert.equal(receiver.received[2]!.headers['traceparent'], undefined);
      await receiver.close();
    });

    it('sends nothing for ephemeral batches and inline evaluations, and one event per stored batch', async () => {
      const receiver = await startReceiver();
      const hook = await register(receiver.url);
      const eph = await t.client.call<Reply<SubmitResult>>('POST', '/evaluate', { blueprints: [blueprint] });
      await pollEvaluation<Reply<EvaluationStatus>>(t.client, dataOf(eph).evaluation_id, POLL);
      await t.client.call('POST', '/evaluate/inline', { blueprint });
      const stored = await evaluateStored('once');
      await receiver.waitFor(1);
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(receiver.received.length, 1);
      assert.equal((JSON.parse(receiver.received[0]!.body) as EvaluationCompleteEvent).data.evaluation_id, stored);
      await t.client.call('DELETE', `/webhooks/${hook.webhook_id}`);
      await receiver.close();
    });

    it('honours Retry-After', async () => {
      const receiver = await startReceiver((n) =>
        n === 1 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200 },
      );
      const hook = await register(receiver.url);
      await evaluateStored('retry-after');
      await receiver.waitFor(2);
      const gap = receiver.received[1]!.at - receiver.received[0]!.at;
      assert.ok(gap >= 900, `second attempt after ${gap} ms`);
      await t.client.call('DELETE', `/webhooks/${hook.webhook_id}`);
      await receiver.close();
    });

    it('disables an endpoint that answers 410 Gone, and refuses redelivery to it', async () => {
      const receiver = await startReceiver(() => ({ status: 410 }));
      const hook = await register(receiver.url);
      await evaluateStored('gone');
      await receiver.waitFor(1);
      await t.server.webhooks.settled();
      const got = dataOf(await t.client.call<Reply<Webhook>>('GET', `/webhooks/${hook.webhook_id}`));
      assert.equal(got.status, 'disabled');
      assert.equal(got.secret, undefined, 'the secret is shown only at registration');
      const deliveries = await t.client.call<Reply<DeliveryList>>('GET', `/webhooks/${hook.webhook_id}/deliveries`);
      const delivery = dataOf(deliveries).deliveries[0]!;
      assert.equal(delivery.status, 'failed');
      const redeliver = await t.client.call<Reply<unknown>>(
        'POST',
        `/webhooks/${hook.webhook_id}/deliveries/${delivery.delivery_id}/redeliver`,
      );
      assert.equal(redeliver.status, 409);
      assert.equal(failureOf(redeliver).error, 'Webhook is disabled');
      await receiver.close();
    });

    it('redelivers on request, lists and deletes endpoints, and keeps them per organization', async () => {
      const receiver = await startReceiver();
      const hook = await register(receiver.url);
      await evaluateStored('redeliver');
      await receiver.waitFor(1);
      await t.server.webhooks.settled();
      const deliveryId = dataOf(
        await t.client.call<Reply<DeliveryList>>('GET', `/webhooks/${hook.webhook_id}/deliveries`),
      ).deliveries[0]!.delivery_id;
      const re = await t.client.call('POST', `/webhooks/${hook.webhook_id}/deliveries/${deliveryId}/redeliver`);
      assert.equal(re.status, 202);
      await receiver.waitFor(2);
      assert.equal(receiver.received[1]!.headers['webhook-id'], deliveryId);
      assert.ok(
        dataOf(await t.client.call<Reply<WebhookList>>('GET', '/webhooks')).webhooks.some(
          (w) => w.webhook_id === hook.webhook_id,
        ),
      );
      const other = await t.addOrg('Other');
      assert.equal(
        failureOf(await other.client.call<Reply<Webhook>>('GET', `/webhooks/${hook.webhook_id}`)).error,
        'Webhook not found',
      );
      assert.equal(dataOf(await other.client.call<Reply<WebhookList>>('GET', '/webhooks')).webhooks.length, 0);
      assert.equal((await t.client.call('DELETE', `/webhooks/${hook.webhook_id}`)).status, 200);
      assert.equal((await t.client.call('GET', `/webhooks/${hook.webhook_id}`)).status, 404);
      await receiver.close();
    });

    it('does not follow redirects: a 3xx is a failed attempt', async () => {
      const receiver = await startReceiver((n) =>
        n === 1 ? { status: 302, headers: { location: '/elsewhere' } } : { status: 200 },
      );
      const hook = await register(receiver.url);
      await evaluateStored('redirect');
      await receiver.waitFor(2);
      assert.ok(
        receiver.received.every((r) => r.headers['webhook-id'] === receiver.received[0]!.headers['webhook-id']),
        'the retry is the same delivery',
      );
      await t.server.webhooks.settled();
      const d = dataOf(await t.client.call<Reply<DeliveryList>>('GET', `/webhooks/${hook.webhook_id}/deliveries`))
        .deliveries[0]!;
      assert.deepEqual(
        d.attempts.map((a) => a.status_code),
        [302, 200],
      );
      await t.client.call('DELETE', `/webhooks/${hook.webhook_id}`);
      await receiver.close();
    });

    it('validates registrations: events, URL and permission', async () => {
      const bad = await t.client.call<Reply<WebhookCreated>>('POST', '/webhooks', {
        url: 'ftp://x',
        events: ['evaluation.started'],
      });
      assert.equal(bad.status, 422);
      assert.deepEqual(
        fieldErrors(bad).map((d) => d.path),
        ['/url', '/events'],
      );
      const k = await t.server.keys.createKey(t.orgId, { permissions: ['governance:evaluate'] });
      const { GovernanceClient } = await import('../../src/client/client.js');
      const res = await new GovernanceClient(t.baseUrl, {
        apiKey: k.api_key,
        signingSecret: k.signing_secret,
      }).call<Reply<WebhookList>>('GET', '/webhooks');
      assert.equal(res.status, 403);
      assert.equal(failureOf(res).error, 'Key lacks webhooks:manage permission');
    });
  });
