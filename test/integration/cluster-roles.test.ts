/**
 * Node roles in cluster mode (issue 16, `ROLE=all|api|worker`): a batch submitted to an `api` node,
 * which runs no chunk jobs, completes because a `worker` node (which serves no public API) runs
 * them; the webhook event of the batch is delivered by the worker too. Two real servers in-process
 * on the test process's redis-server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importScenario } from '../../src/actors/scenarios.js';
import { signWebhook } from '../../src/actors/webhooks/signing.js';
import { pollEvaluation } from '../../src/client/client.js';
import type { EvaluationReply, Reply, StoredSubmitResult, WebhookCreated } from '../../src/client/responses.js';
import { dataOf } from '../helpers/assertions.js';
import { bp, m } from '../helpers/blueprints.js';
import { startReceiver } from '../helpers/receiver.js';
import { redisClusterEnv } from '../helpers/redis-env.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('cluster node roles', () => {
  let api: TestServer;
  let worker: TestServer;
  before(async () => {
    const env = await redisClusterEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    api = await startTestServer({ env: { ...env, ROLE: 'api' } });
    worker = await startTestServer({ env: { ...env, ROLE: 'worker' } });
    for (const id of ['a', 'b', 'c'])
      await importScenario(api.server.store.scenarios, api.orgId, id, JSON.stringify(bp([m(1, 'util:SetVariable2')])));
  });
  after(async () => {
    await api.close();
    await worker.close();
  });

  it('a worker node serves no public API', () => {
    assert.equal(worker.server.port, 0);
    assert.notEqual(api.server.port, 0);
  });

  it('a batch submitted to an api node completes on the worker node, which also delivers its event', async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const hook = await api.client.call<Reply<WebhookCreated>>('POST', '/webhooks', {
        url: receiver.url,
        events: ['evaluation.complete'],
      });
      assert.equal(hook.status, 201, hook.raw);
      const submit = dataOf(
        await api.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ['a', 'b', 'c'] }),
      );
      const status = dataOf(
        await pollEvaluation<EvaluationReply>(api.client, submit.evaluation_id, { delaysMs: [50], timeoutMs: 30_000 }),
      );
      assert.equal(status.status, 'complete');
      assert.equal(status.completed, 3);
      await receiver.waitFor(1);
      const r = receiver.received[0]!;
      const event = JSON.parse(r.body) as { data: { evaluation_id: string } };
      assert.equal(event.data.evaluation_id, submit.evaluation_id);
      // Signed by the worker with the secret the api node showed: the nodes share their master key.
      const expected = signWebhook(
        dataOf(hook).secret,
        String(r.headers['webhook-id']),
        Number(r.headers['webhook-timestamp']),
        r.body,
      );
      assert.ok(String(r.headers['webhook-signature']).split(' ').includes(expected), 'the signature verifies');
    } finally {
      await receiver.close();
    }
  });
});
