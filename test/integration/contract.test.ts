/** The OpenAPI 3.1 document: in step with the code, served without auth, linted with Redocly, and real responses valid against it. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { importScenario } from '../../src/actors/scenarios.js';
import { pollEvaluation, send, type ClientResponse } from '../../src/client/client.js';
import { openApiDocument } from '../../src/server/openapi/document.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bp, breakHandler, fakeToken, m } from '../helpers/blueprints.js';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOC_FILE = join(ROOT, 'docs/openapi.json');

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ ...openApiDocument(), $id: 'https://gov.local/openapi.json' });
function conforms(res: ClientResponse, schema: string): void {
  const validate = ajv.getSchema(`https://gov.local/openapi.json#/components/schemas/${schema}`);
  assert.ok(validate, schema);
  const target = schema === 'ErrorResponse' ? res.body : res.body.data;
  if (schema !== 'ErrorResponse') {
    assert.equal(res.body.ok, true, res.raw);
    assert.match(res.body.meta.watermark, /^wm_[0-9a-f]{8}$/);
  }
  assert.ok(validate(target), `${schema}: ${JSON.stringify(validate.errors?.slice(0, 3))}\n${res.raw.slice(0, 400)}`);
}

describe('OpenAPI contract', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await importScenario(
      t.server.store.scenarios,
      t.orgId,
      'c1',
      JSON.stringify(
        bp(
          [
            m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } }),
            m(2, 'http:MakeRequest', {
              version: 4,
              mapper: {
                url: 'http://x.example.com',
                method: 'post',
                headers: [{ name: 'Authorization', value: `Bearer ghp_${fakeToken(9, 36)}` }],
              },
            }),
            m(3, 'openai-gpt-3:CreateCompletion', {
              mapper: { messages: [{ role: 'user', content: '{{1.email}}' }] },
              onerror: breakHandler(9),
            }),
          ],
          { dlq: false },
          { instant: true },
        ),
      ),
    );
    await importScenario(t.server.store.scenarios, t.orgId, 'c2', JSON.stringify(bp([m(1, 'util:SetVariable2')])));
  });
  after(() => t.close());

  it('keeps docs/openapi.json in step with the code (run `npm run docs:openapi`)', () => {
    assert.deepEqual(JSON.parse(readFileSync(DOC_FILE, 'utf8')), openApiDocument());
  });

  it('passes the Redocly linter', () => {
    const pkg = require.resolve('@redocly/cli/package.json');
    const bin = join(dirname(pkg), (require(pkg) as { bin: Record<string, string> }).bin['redocly']!);
    const r = spawnSync(process.execPath, [bin, 'lint', DOC_FILE, '--config', join(ROOT, 'redocly.yaml')], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });

  it('serves the document without authentication', async () => {
    const res = await send(new URL('/api/public/v1/openapi.json', t.baseUrl), 'GET', {}, '');
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    assert.deepEqual(res.body, openApiDocument());
  });

  it('real responses of every endpoint conform to the document', async () => {
    const submit = await t.client.call('POST', '/evaluate', { scenario_ids: ['c1', 'c2'] });
    conforms(submit, 'SubmitResult');
    conforms(await t.client.call('GET', `/evaluations/${submit.body.data.evaluation_id}`), 'EvaluationStatus');
    const done = await pollEvaluation(t.client, submit.body.data.evaluation_id, { delaysMs: [50], timeoutMs: 20_000 });
    conforms(done, 'EvaluationStatus');
    conforms(await t.client.call('GET', '/scenarios/c1/results'), 'ScenarioResults');
    await importScenario(t.server.store.scenarios, t.orgId, 'c3', JSON.stringify(bp([m(1, 'util:SetVariable2')])));
    conforms(await t.client.call('GET', '/scenarios/c3/results'), 'ScenarioResults');
    conforms(await t.client.call('GET', '/violations/c1:SEC-1/remediation'), 'Remediation');
    conforms(
      await t.client.call('POST', '/results/fetch', { result_token: submit.body.data.result_token }),
      'ResultsFetch',
    );
    const ephemeral = await t.client.call('POST', '/evaluate', { blueprints: [bp([m(1, 'util:SetVariable2')])] });
    conforms(ephemeral, 'SubmitResult');
    conforms(
      await t.client.call('POST', '/evaluate/inline', {
        blueprint: bp([m(1, 'gateway:CustomWebHook'), m(2, 'slack:CreateMessage', { mapper: { text: '{{1.x}}' } })]),
        include_remediation: true,
        save_to_workspace: true,
      }),
      'InlineResult',
    );
    conforms(await t.client.call('GET', '/governance/policies'), 'PolicyCatalog');
    conforms(await t.client.call('GET', '/organization/rollup'), 'Rollup');
    const hook = await t.client.call('POST', '/webhooks', { url: 'https://hooks.example.com/gov' });
    assert.equal(hook.status, 201, hook.raw);
    conforms(hook, 'Webhook');
    conforms(await t.client.call('GET', '/webhooks'), 'WebhookList');
    conforms(await t.client.call('GET', `/webhooks/${hook.body.data.webhook_id}`), 'Webhook');
    conforms(await t.client.call('GET', `/webhooks/${hook.body.data.webhook_id}/deliveries`), 'DeliveryList');
    conforms(await t.client.call('DELETE', `/webhooks/${hook.body.data.webhook_id}`), 'WebhookDeleted');
    for (const res of [
      await t.client.call('GET', '/scenarios/nope/results'),
      await t.client.call('POST', '/evaluate', { scenario_ids: [] }),
      await t.client.call('GET', '/violations/bad/remediation'),
      await send(new URL('/api/public/v1/governance/policies', t.baseUrl), 'GET', {}, ''),
    ])
      conforms(res, 'ErrorResponse');
  });
});
