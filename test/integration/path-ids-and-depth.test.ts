/**
 * Ids that cannot exist and bodies that nest too deep (issue 13, items 7 and 8): the spec's 404 or a
 * 422, never a 500, and the server keeps answering.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Reply, ScenarioResults, WebhookCreated } from '../../src/client/responses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/assertions.js';
import { bp, m } from '../helpers/blueprints.js';
import { importScenario } from '../../src/actors/scenarios.js';
import { dataOf, failureOf } from './bodies.js';

/** `[[[...]]]` nested `depth` levels inside a blueprint's mapper. */
function deepBlueprint(depth: number): string {
  const inner = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  return JSON.stringify(bp([m(1, 'util:SetVariable2')])).replace('"mapper":{}', `"mapper":{"deep":${inner}}`);
}

describe('path ids and nesting depth', () => {
  let t: TestServer;
  let webhookId: string;
  before(async () => {
    t = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    await importScenario(t.server.store.scenarios, t.orgId, 's1', JSON.stringify(bp([m(1, 'util:SetVariable2')])));
    const hook = await t.client.call<Reply<WebhookCreated>>('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook' });
    webhookId = dataOf(hook).webhook_id;
  });
  after(() => t.close());

  for (const length of [129, 2100, 5000]) {
    it(`answers the route's 404 for a ${length}-character id in every path that carries one`, async () => {
      const id = 'a'.repeat(length);
      expectError(await t.client.call('GET', `/evaluations/${id}`), 404, 'Evaluation not found');
      expectError(await t.client.call('GET', `/scenarios/${id}/results`), 404, 'Scenario not found');
      expectError(await t.client.call('GET', `/violations/${id}:SEC-1/remediation`), 404, 'Scenario not found');
      expectError(await t.client.call('GET', `/webhooks/${id}`), 404, 'Webhook not found');
      expectError(await t.client.call('DELETE', `/webhooks/${id}`), 404, 'Webhook not found');
      expectError(await t.client.call('GET', `/webhooks/${id}/deliveries`), 404, 'Webhook not found');
      expectError(await t.client.call('POST', `/webhooks/${id}/deliveries/d1/redeliver`), 404, 'Webhook not found');
      expectError(
        await t.client.call('POST', `/webhooks/${webhookId}/deliveries/${id}/redeliver`),
        404,
        'Delivery not found',
      );
    });
  }

  it('measures an id after percent-decoding, and still serves ids of exactly 128 characters', async () => {
    const encoded = '%C3%A9'.repeat(129); // 129 characters once decoded
    expectError(await t.client.call('GET', `/scenarios/${encoded}/results`), 404, 'Scenario not found');
    const id128 = 'b'.repeat(128);
    await importScenario(t.server.store.scenarios, t.orgId, id128, JSON.stringify(bp([m(1, 'util:SetVariable2')])));
    const res = await t.client.call<Reply<ScenarioResults>>('GET', `/scenarios/${id128}/results`);
    assert.equal(res.status, 200, res.raw);
    assert.equal(dataOf(res).scenario_id, id128);
    expectError(
      await t.client.call('GET', `/violations/${'c'.repeat(300)}/remediation`),
      400,
      'violation_id must be {blueprint_id}:{policy_code}',
    );
  });

  it('answers 422 to a body nested 10,000 levels deep on every JSON route, and a blueprint nested within the limit is evaluated', async () => {
    const deep = deepBlueprint(10_000);
    for (const [path, body] of [
      ['/evaluate', `{"blueprints":[${deep}]}`],
      ['/evaluate/inline', `{"blueprint":${deep}}`],
      ['/results/fetch', `{"result_token":"x","extra":${deep}}`],
      ['/webhooks', `{"url":"http://127.0.0.1:9/x","extra":${deep}}`],
    ] as const) {
      const res = await t.client.call<Reply<unknown>>('POST', path, undefined, { rawBody: body });
      expectError(res, 422, 'Invalid request body');
      assert.match(JSON.stringify(failureOf(res).detail), /deeper than 512 levels/, path);
    }
    const within = await t.client.call('POST', '/evaluate', undefined, {
      rawBody: `{"blueprints":[${deepBlueprint(400)}]}`,
    });
    assert.equal(within.status, 200, within.raw);
    assert.equal((await t.client.call('GET', '/governance/policies')).status, 200);
  });
});
