/** The SDK end to end with webhooks: created with `createWebhook`, a real delivery verified by `verifyWebhook` (and the reference library), a tampered one refused. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { GovernanceClient, verifyWebhook, WebhookVerificationError } from '@gov/sdk';
import { importScenario } from '../../src/actors/scenarios.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startReceiver } from '../helpers/receiver.js';
import { bp, m } from '../helpers/blueprints.js';

describe('SDK webhooks against the real server', () => {
  let t: TestServer;
  let sdk: GovernanceClient;
  before(async () => {
    t = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    await importScenario(t.server.store.scenarios, t.orgId, 'w1', JSON.stringify(bp([m(1, 'util:SetVariable2')])));
    sdk = new GovernanceClient({ baseUrl: t.baseUrl, apiKey: t.creds.apiKey, signingSecret: t.creds.signingSecret });
  });
  after(() => t.close());

  it('verifies a real evaluation.complete delivery with the secret createWebhook returned', async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const hook = (await sdk.createWebhook({ url: receiver.url, events: ['evaluation.complete'] })).data;
      assert.match(hook.secret ?? '', /^whsec_/);
      const submitted = (await sdk.submitEvaluation({ scenario_ids: ['w1'] })).data;
      await receiver.waitFor(1);
      const delivery = receiver.received[0]!;
      const event = verifyWebhook({ secret: hook.secret!, headers: delivery.headers, body: delivery.body });
      assert.equal(event.type, 'evaluation.complete');
      assert.equal(event.data['evaluation_id'], submitted.evaluation_id);
      const headers = {
        'webhook-id': String(delivery.headers['webhook-id']),
        'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
        'webhook-signature': String(delivery.headers['webhook-signature']),
      };
      assert.deepEqual(new Webhook(hook.secret!).verify(delivery.body, headers), event, 'the reference agrees');
      assert.throws(
        () =>
          verifyWebhook({ secret: hook.secret!, headers: delivery.headers, body: delivery.body.replace('w1', 'w2') }),
        (err) => err instanceof WebhookVerificationError && err.reason === 'no_matching_signature',
      );
      await sdk.deleteWebhook(hook.webhook_id);
    } finally {
      await receiver.close();
    }
  });
});
