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
import type {
  DeliveryList,
  EvaluationReply,
  Failure,
  InlineResult,
  PolicyCatalog,
  Remediation,
  Reply,
  ResultsFetch,
  Rollup,
  ScenarioResults,
  StoredSubmitResult,
  SubmitResult,
  Webhook,
  WebhookCreated,
  WebhookDeleted,
  WebhookList,
} from '../../src/client/responses.js';
import { openApiDocument } from '../../src/server/openapi/document.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bp, breakHandler, fakeToken, m } from '../helpers/blueprints.js';
import { dataOf } from '../helpers/assertions.js';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOC_FILE = join(ROOT, 'docs/openapi.json');

/** The part of `redocly lint --format json` this test reads. */
interface RedoclyReport {
  readonly totals: { readonly errors: number; readonly warnings: number };
  readonly problems: readonly {
    readonly ruleId: string;
    readonly severity: string;
    readonly message: string;
    readonly location: readonly { readonly pointer: string }[];
  }[];
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ ...openApiDocument(), $id: 'https://gov.local/openapi.json' });
/** Asserts `res` is valid against `components.schemas[schema]`: the whole body for `ErrorResponse`, else `data` in a success envelope. */
function conforms(res: ClientResponse<Reply<unknown>>, schema: string): void {
  const validate = ajv.getSchema(`https://gov.local/openapi.json#/components/schemas/${schema}`);
  assert.ok(validate, schema);
  let target: unknown = res.body;
  if (schema !== 'ErrorResponse') {
    assert.equal(res.body.ok, true, res.raw);
    assert.match(res.body.meta.watermark, /^wm_[0-9a-f]{8}$/);
    target = res.body.data;
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

  it('passes the Redocly linter (recommended ruleset) without an error or a warning', () => {
    const pkg = require.resolve('@redocly/cli/package.json');
    const bin = join(dirname(pkg), (require(pkg) as { bin: Record<string, string> }).bin['redocly']!);
    const r = spawnSync(
      process.execPath,
      [bin, 'lint', DOC_FILE, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
      },
    );
    assert.equal(r.status, 0, r.stdout + r.stderr);
    // Warnings leave the exit status 0: count them from the report.
    const report = JSON.parse(r.stdout) as RedoclyReport;
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    assert.deepEqual(
      { errors: report.totals.errors, warnings: report.totals.warnings },
      { errors: 0, warnings: 0 },
      problems.join('\n'),
    );
  });

  it('serves the document without authentication', async () => {
    const res = await send<Record<string, unknown>>(new URL('/api/public/v1/openapi.json', t.baseUrl), 'GET', {}, '');
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    assert.deepEqual(res.body, openApiDocument());
  });

  it('real responses of every endpoint conform to the document', async () => {
    const submit = await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ['c1', 'c2'] });
    conforms(submit, 'SubmitResult');
    const { evaluation_id: evaluationId, result_token: resultToken } = dataOf(submit);
    conforms(await t.client.call<EvaluationReply>('GET', `/evaluations/${evaluationId}`), 'EvaluationStatus');
    const done = await pollEvaluation<EvaluationReply>(t.client, evaluationId, { delaysMs: [50], timeoutMs: 20_000 });
    conforms(done, 'EvaluationStatus');
    const c1 = await t.client.call<Reply<ScenarioResults>>('GET', '/scenarios/c1/results');
    conforms(c1, 'ScenarioResults');
    // Issue 32: the e-mail the webhook receives reaches the model; the finding carries its evidence path.
    const paths = dataOf(c1).violations.flatMap((v) => v.failing_modules.flatMap((f) => f.evidence?.path ?? []));
    assert.ok(
      paths.some((s) => s.role === 'source' && s.module_id === '1'),
      JSON.stringify(paths),
    );
    await importScenario(t.server.store.scenarios, t.orgId, 'c3', JSON.stringify(bp([m(1, 'util:SetVariable2')])));
    conforms(await t.client.call<Reply<ScenarioResults>>('GET', '/scenarios/c3/results'), 'ScenarioResults');
    conforms(await t.client.call<Reply<Remediation>>('GET', '/violations/c1:SEC-1/remediation'), 'Remediation');
    conforms(
      await t.client.call<Reply<ResultsFetch>>('POST', '/results/fetch', { result_token: resultToken }),
      'ResultsFetch',
    );
    const ephemeral = await t.client.call<Reply<SubmitResult>>('POST', '/evaluate', {
      blueprints: [bp([m(1, 'util:SetVariable2')])],
    });
    conforms(ephemeral, 'SubmitResult');
    conforms(
      await t.client.call<Reply<InlineResult>>('POST', '/evaluate/inline', {
        blueprint: bp([m(1, 'gateway:CustomWebHook'), m(2, 'slack:CreateMessage', { mapper: { text: '{{1.x}}' } })]),
        include_remediation: true,
        save_to_workspace: true,
      }),
      'InlineResult',
    );
    conforms(await t.client.call<Reply<PolicyCatalog>>('GET', '/governance/policies'), 'PolicyCatalog');
    conforms(await t.client.call<Reply<Rollup>>('GET', '/organization/rollup'), 'Rollup');
    const hook = await t.client.call<Reply<WebhookCreated>>('POST', '/webhooks', {
      url: 'https://hooks.example.com/gov',
    });
    assert.equal(hook.status, 201, hook.raw);
    conforms(hook, 'Webhook');
    const webhookId = dataOf(hook).webhook_id;
    conforms(await t.client.call<Reply<WebhookList>>('GET', '/webhooks'), 'WebhookList');
    conforms(await t.client.call<Reply<Webhook>>('GET', `/webhooks/${webhookId}`), 'Webhook');
    conforms(await t.client.call<Reply<DeliveryList>>('GET', `/webhooks/${webhookId}/deliveries`), 'DeliveryList');
    conforms(await t.client.call<Reply<WebhookDeleted>>('DELETE', `/webhooks/${webhookId}`), 'WebhookDeleted');
    for (const res of [
      await t.client.call<Reply<ScenarioResults>>('GET', '/scenarios/nope/results'),
      await t.client.call<Reply<SubmitResult>>('POST', '/evaluate', { scenario_ids: [] }),
      await t.client.call<Reply<Remediation>>('GET', '/violations/bad/remediation'),
      await send<Failure>(new URL('/api/public/v1/governance/policies', t.baseUrl), 'GET', {}, ''),
    ])
      conforms(res, 'ErrorResponse');
  });
  it('governance responses (issue 17) conform to the document', async () => {
    const settings = await t.client.call<Reply<unknown>>('GET', '/governance/settings');
    conforms(settings, 'GovernanceSettings');
    conforms(
      await t.client.call<Reply<unknown>>('PUT', '/governance/settings', {
        disabled_policies: ['ARC-4'],
        severity_overrides: { 'SEC-1': 'high' },
        parameters: { max_modules: 30 },
      }),
      'GovernanceSettings',
    );
    const rule = await t.client.call<Reply<{ code: string }>>('POST', '/governance/rules', {
      title: 'No HTTP',
      severity: 'low',
      category: 'SEC',
      remediation: 'Use the app module.',
      match: { app: 'http' },
    });
    assert.equal(rule.status, 201, rule.raw);
    conforms(rule, 'CustomRule');
    conforms(await t.client.call<Reply<unknown>>('GET', '/governance/rules'), 'CustomRuleList');
    conforms(await t.client.call<Reply<unknown>>('GET', `/governance/rules/${dataOf(rule).code}`), 'CustomRule');
    conforms(await t.client.call<Reply<PolicyCatalog>>('GET', '/governance/policies?effective=1'), 'PolicyCatalog');
    const waiver = await t.client.call<Reply<{ waiver_id: string; reevaluation_id: string }>>('POST', '/waivers', {
      scenario_id: 'c1',
      policy: 'SEC-1',
      reason: 'test credential',
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    assert.equal(waiver.status, 201, waiver.raw);
    conforms(waiver, 'Waiver');
    const id = dataOf(waiver).waiver_id;
    const done = await pollEvaluation<EvaluationReply>(t.client, dataOf(waiver).reevaluation_id, {
      delaysMs: [50],
      timeoutMs: 20_000,
    });
    conforms(done, 'EvaluationStatus');
    conforms(await t.client.call<Reply<ScenarioResults>>('GET', '/scenarios/c1/results?waived=1'), 'ScenarioResults');
    conforms(await t.client.call<Reply<Rollup>>('GET', '/organization/rollup?waived=1'), 'Rollup');
    conforms(await t.client.call<Reply<unknown>>('GET', '/waivers'), 'WaiverList');
    conforms(await t.client.call<Reply<unknown>>('GET', `/waivers/${id}`), 'Waiver');
    conforms(await t.client.call<Reply<unknown>>('DELETE', `/waivers/${id}`), 'Waiver');
    conforms(await t.client.call<Reply<unknown>>('DELETE', `/governance/rules/${dataOf(rule).code}`), 'CustomRule');
    for (const res of [
      await t.client.call<Reply<unknown>>('GET', '/waivers/wvr_nope'),
      await t.client.call<Reply<unknown>>('GET', '/governance/rules/ORG-999'),
      await t.client.call<Reply<unknown>>('PUT', '/governance/settings?x=1', {}, { headers: { 'if-match': '"0"' } }),
      await t.client.call<Reply<unknown>>('POST', '/waivers', {}),
    ])
      conforms(res, 'ErrorResponse');
  });
  it('console responses (issue 18) conform to the document', async () => {
    await t.server.users.create(t.orgId, 'owner@contract.test', 'owner', 'owner password 123');
    const login = await send<Reply<{ session_token: string }>>(
      new URL('/api/v1/session', t.baseUrl),
      'POST',
      { 'content-type': 'application/json' },
      JSON.stringify({ email: 'owner@contract.test', password: 'owner password 123' }),
    );
    assert.equal(login.status, 200, login.raw);
    const auth = { authorization: `Bearer ${dataOf(login).session_token}` };
    const consoleCall = (method: string, path: string, body?: unknown) =>
      send<Reply<unknown>>(
        new URL(`/api/v1${path}`, t.baseUrl),
        method,
        body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
        body === undefined ? '' : JSON.stringify(body),
      );
    /** A console success: `{ ok: true, data }` (no watermark: sessions are not keys). */
    const conformsConsole = (res: ClientResponse<Reply<unknown>>, schema: string) => {
      const validate = ajv.getSchema(`https://gov.local/openapi.json#/components/schemas/${schema}`);
      assert.ok(validate, schema);
      assert.equal(res.body.ok, true, res.raw);
      assert.ok(validate(dataOf(res)), `${schema}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    };
    conformsConsole(await consoleCall('GET', '/overview'), 'ConsoleOverview');
    conformsConsole(await consoleCall('GET', '/scenarios?sort=score'), 'ScenarioList');
    conformsConsole(await consoleCall('GET', '/scenarios/c1'), 'ScenarioPage');
    conformsConsole(await consoleCall('GET', '/audit'), 'AuditList');
    conformsConsole(await consoleCall('GET', '/users'), 'ConsoleUserList');
    const created = await consoleCall('POST', '/users', { email: 'new@contract.test', role: 'member' });
    assert.equal(created.status, 201, created.raw);
    conformsConsole(created, 'ConsoleUser');
    conforms(await consoleCall('GET', '/audit?limit=0'), 'ErrorResponse');
  });
  it('serves the deployment as its server when PUBLIC_BASE_URL is set', async () => {
    const deployed = await startTestServer({ env: { PUBLIC_BASE_URL: 'https://gov.example.com' } });
    try {
      const res = await send<{ servers: { url: string }[] }>(
        new URL('/api/public/v1/openapi.json', deployed.baseUrl),
        'GET',
        {},
        '',
      );
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.servers.map((s) => s.url),
        ['https://gov.example.com'],
      );
    } finally {
      await deployed.close();
    }
  });
});
