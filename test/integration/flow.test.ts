/** The typical flow of spec §1 over HTTP with signed requests: stored batches, ephemeral batches, inline, tokens. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { importScenario } from '../../src/actors/scenarios.js';
import { pollEvaluation } from '../../src/client/client.js';
import type {
  EvaluationReply,
  InlineResult,
  PolicyCatalog,
  Remediation,
  Reply,
  ResultsFetch,
  ScenarioResults,
  StoredSubmitResult,
  SubmitResult,
} from '../../src/client/responses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { redisClusterEnv } from '../helpers/redis-env.js';
import { dataOf, failureOf } from '../helpers/assertions.js';
import { bp, breakHandler, fakeToken, m } from '../helpers/blueprints.js';

const leaky = bp(
  [
    m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } }),
    m(2, 'http:ActionSendData', {
      version: 3,
      mapper: {
        url: 'http://api.example.com/orders',
        method: 'post',
        headers: [{ name: 'Authorization', value: `Bearer sk_live_${fakeToken(1, 32)}` }],
      },
    }),
  ],
  { dlq: false },
  { instant: true },
);
const clean = bp([
  m(1, 'google-sheets:watchRows', { version: 2, parameters: { limit: 50 } }),
  m(2, 'google-sheets:addRow', {
    version: 2,
    parameters: { __IMTCONN__: 4 },
    mapper: { spreadsheetId: '/abc', sheetId: 'Log', values: { 0: '{{1.`0`}}' } },
    onerror: [m(4, 'slack:CreateMessage', { mapper: { text: 'Row failed: {{error.message}}' } }), ...breakHandler(3)],
  }),
]);
const FAST_POLL = { delaysMs: [50, 100, 200], timeoutMs: 30_000 };

for (const backend of ['lmdb', 'redis'] as const)
  describe(`evaluation flow (${backend})`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(backend === 'redis' ? { env: await redisClusterEnv() } : {});
      await importScenario(t.server.store.scenarios, t.orgId, '4417', JSON.stringify(leaky));
      await importScenario(t.server.store.scenarios, t.orgId, 'clean-1', JSON.stringify(clean));
      await importScenario(t.server.store.scenarios, t.orgId, 'never-evaluated', JSON.stringify(clean));
    });
    after(() => t.close());

    it('submits stored scenarios, returns at once with a token, and completes with summaries', async () => {
      const submit = await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', {
        scenario_ids: ['4417', 'clean-1'],
        org_id: t.orgId,
      });
      assert.equal(submit.status, 200, submit.raw);
      assert.equal(submit.body.ok, true);
      assert.match(submit.body.meta.watermark, /^wm_[0-9a-f]{8}$/);
      const d = submit.body.data;
      assert.match(d.evaluation_id, /^[0-9a-f-]{36}$/);
      assert.ok(['pending', 'processing'].includes(d.status));
      assert.equal(d.total_scenarios, 2);
      assert.equal(d.result_token.split('.').length, 3);
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
        assert.ok(submit.headers[h], h);

      const f = dataOf(await pollEvaluation<EvaluationReply>(t.client, d.evaluation_id, FAST_POLL));
      assert.equal(f.status, 'complete');
      assert.equal(f.completed, 2);
      assert.ok(f.scenarios, 'a complete evaluation lists its scenarios');
      const [leakySummary, cleanSummary] = f.scenarios;
      assert.ok(leakySummary && cleanSummary);
      assert.equal(leakySummary.id, '4417');
      assert.ok(leakySummary.violations >= 4);
      assert.equal(leakySummary.critical, 1);
      assert.ok(leakySummary.score < cleanSummary.score);
      assert.ok(leakySummary.compliance_gaps.includes('PCI DSS v4.0 8.6.2'));
      const mod2 = leakySummary.module_violations.find((x) => x.module_id === '2');
      assert.ok(mod2, 'module 2 has violations');
      assert.equal(mod2.badge, 'critical');
      assert.ok(mod2.policies.includes('SEC-1') && mod2.policies.includes('SEC-3'));
      assert.equal(cleanSummary.violations, 0);
      assert.equal(cleanSummary.score, 100);

      const results = await t.client.call<Reply<ScenarioResults>>('GET', '/scenarios/4417/results');
      assert.equal(results.status, 200);
      const r = dataOf(results);
      assert.equal(r.evaluation_status, 'evaluated');
      assert.equal(r.scenario_id, '4417');
      assert.equal(r.failing_count, r.violations.length);
      assert.equal(r.passing_count + r.failing_count, r.evaluated_codes.length);
      const sec1 = r.violations.find((v) => v.policy === 'SEC-1');
      assert.ok(sec1, 'SEC-1 reported');
      assert.deepEqual(
        Object.keys(sec1.failing_modules[0]!)
          .filter((k) => ['module_id', 'module_name', 'module_type', 'reason', 'badge'].includes(k))
          .sort(),
        ['badge', 'module_id', 'module_name', 'module_type', 'reason'],
      );
      assert.equal(sec1.source, 'automated');
      assert.equal(sec1.remediation_available, true);
      assert.ok(!results.raw.includes(fakeToken(1, 32)), 'a secret must never be echoed back');

      const remRes = await t.client.call<Reply<Remediation>>('GET', '/violations/4417:SEC-1/remediation');
      assert.equal(remRes.status, 200);
      const rem = dataOf(remRes);
      assert.equal(rem.severity, 'critical');
      assert.equal(rem.estimated_effort, 'low');
      assert.ok(rem.steps.length >= 2);
      assert.ok(
        rem.compliance_frameworks.every(
          (c) => typeof c.framework === 'string' && (typeof c.control === 'string' || typeof c.article === 'string'),
        ),
      );

      const first = await t.client.call<Reply<ResultsFetch>>('POST', '/results/fetch', {
        result_token: d.result_token,
      });
      assert.equal(first.status, 200);
      const fetched = dataOf(first);
      assert.ok(fetched.status === 'complete', first.raw);
      assert.equal(fetched.scenarios.length, 2);
      const s0 = fetched.scenarios[0]!;
      for (const field of [
        'scenario_id',
        'name',
        'violations',
        'module_summary',
        'evaluated_codes',
        'passing_count',
        'failing_count',
      ])
        assert.ok(field in s0, field);
      const again = await t.client.call<Reply<ResultsFetch>>('POST', '/results/fetch', {
        result_token: d.result_token,
        attempt: 2,
      });
      assert.equal(again.status, 401);
      assert.equal(failureOf(again).error, 'Invalid, expired, or already-used result token');
    });

    it("serves a scenario's latest results from the evaluation that produced them, also after older or that evaluation are deleted", async () => {
      const first = dataOf(
        await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', {
          scenario_ids: ['clean-1', '4417'],
          round: 1,
        }),
      );
      await pollEvaluation(t.client, first.evaluation_id, FAST_POLL);
      const second = dataOf(
        await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ['4417'], round: 2 }),
      );
      await pollEvaluation(t.client, second.evaluation_id, FAST_POLL);
      const latest = async (id: string) =>
        dataOf(await t.client.call<Reply<ScenarioResults>>('GET', `/scenarios/${id}/results`));
      assert.equal((await latest('4417')).evaluation_id, second.evaluation_id);
      assert.equal((await latest('clean-1')).evaluation_id, first.evaluation_id);
      const store = t.server.store;
      // Deleting the first evaluation (admin `evaluations delete`) keeps clean-1's results, which are still its latest.
      assert.equal(await store.evaluations.delete(first.evaluation_id), true);
      assert.equal((await latest('clean-1')).evaluation_id, first.evaluation_id);
      assert.equal((await latest('4417')).evaluation_id, second.evaluation_id);
      assert.equal(
        await store.evaluations.scenarioResults(first.evaluation_id, 1),
        undefined,
        "4417's older results of the deleted evaluation are removed",
      );
      assert.equal((await t.client.call('POST', '/results/fetch', { result_token: first.result_token })).status, 404);
    });

    it('serves not_evaluated results and on-demand remediation for a scenario never evaluated', async () => {
      const res = await t.client.call<Reply<ScenarioResults>>('GET', '/scenarios/never-evaluated/results');
      assert.equal(res.status, 200);
      assert.equal(dataOf(res).evaluation_status, 'not_evaluated');
      assert.deepEqual(dataOf(res).violations, []);
      const rem = await t.client.call<Reply<Remediation>>('GET', '/violations/never-evaluated:SEC-1/remediation');
      assert.equal(rem.status, 404);
      assert.equal(failureOf(rem).error, 'Violation not found');
    });

    it('evaluates ephemeral blueprints[] without a token and without storing scenarios', async () => {
      const submit = await t.client.call<Reply<SubmitResult>>('POST', '/evaluate', { blueprints: [leaky, clean] });
      assert.equal(submit.status, 200, submit.raw);
      assert.equal(dataOf(submit).result_token, undefined);
      const final = dataOf(await pollEvaluation<EvaluationReply>(t.client, dataOf(submit).evaluation_id, FAST_POLL));
      assert.deepEqual(
        final.scenarios?.map((s) => s.id),
        ['inline-1', 'inline-2'],
      );
      assert.equal((await t.client.call('GET', '/scenarios/inline-1/results')).status, 404);
    });

    it('evaluates inline synchronously with the module graph, remediation on request, and saves on opt-in', async () => {
      const res = await t.client.call<Reply<InlineResult>>('POST', '/evaluate/inline', {
        blueprint: leaky,
        include_remediation: true,
        unknown_field: 'ignored',
      });
      assert.equal(res.status, 200, res.raw);
      const d = dataOf(res);
      assert.equal(d.scenario.evaluation_status, 'evaluated');
      assert.equal(d.module_graph.nodes.length, 2);
      assert.deepEqual(d.module_graph.edges, [{ from: '1', to: '2', kind: 'next' }]);
      assert.equal(d.module_graph.nodes[1]!.badge, 'critical');
      assert.ok(d.remediation?.['SEC-1'], 'remediation of SEC-1 included');
      assert.ok(d.remediation['SEC-1'].steps.length > 0);
      assert.equal(d.saved, undefined);
      const plain = await t.client.call<Reply<InlineResult>>('POST', '/evaluate/inline', { blueprint: clean });
      assert.equal(dataOf(plain).remediation, undefined);

      const saved = await t.client.call<Reply<InlineResult>>('POST', '/evaluate/inline', {
        blueprint: clean,
        save_to_workspace: true,
        scenario_id: 'saved-1',
      });
      assert.equal(dataOf(saved).saved?.scenario_id, 'saved-1');
      const stored = await t.client.call<Reply<ScenarioResults>>('GET', '/scenarios/saved-1/results');
      assert.equal(stored.status, 200);
      assert.equal(dataOf(stored).evaluation_status, 'not_evaluated');
    });

    it('returns the policy catalog with cache headers and answers If-None-Match with 304', async () => {
      const res = await t.client.call<Reply<PolicyCatalog>>('GET', '/governance/policies');
      assert.equal(res.status, 200);
      assert.equal(res.headers['cache-control'], 'max-age=86400');
      const etag = res.headers['etag'] as string;
      assert.ok(etag);
      for (const p of dataOf(res).policies)
        for (const f of ['code', 'title', 'category', 'severity', 'compliance_frameworks']) assert.ok(f in p, f);
      const cached = await t.client.call('GET', '/governance/policies', undefined, {
        headers: { 'if-none-match': etag },
      });
      assert.equal(cached.status, 304);
      assert.equal(cached.raw, '');
    });

    it('evaluates every example blueprint shipped in examples/ with the bootstrap scenario ids', async () => {
      for (const file of ['order-intake', 'lead-enrichment', 'weekly-revenue-report']) {
        const blueprint: unknown = JSON.parse(
          readFileSync(new URL(`../../../examples/${file}.blueprint.json`, import.meta.url), 'utf8'),
        );
        const res = await t.client.call('POST', '/evaluate/inline', { blueprint });
        assert.equal(res.status, 200, `${file}: ${res.raw}`);
      }
    });
  });
