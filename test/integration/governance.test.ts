/**
 * Organization settings and custom rules over HTTP on both backends (issue 17): a severity override,
 * a disabled policy and a parameter change the results and the effective catalog (with its own
 * ETag); versions are compare-and-set; a custom rule fires and does not fire on blueprints of the
 * fixture corpus (test/fixtures/corpus), like a built-in policy; the error rows. A rule's pattern runs
 * on the linear-time engine (issue 31): one that backtracks for minutes in JavaScript is accepted and
 * answers an inline evaluation of a 5,000-character value within a 2 s scenario budget (the old engine
 * hit it); lookaround and back-references are refused at the pattern's pointer.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importScenario } from '../../src/actors/scenarios.js';
import { pollEvaluation } from '../../src/client/client.js';
import type { EvaluationStatus, InlineResult, Reply, StoredSubmitResult } from '../../src/client/responses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { redisClusterEnv } from '../helpers/redis-env.js';
import { fixtureJson, fixtureText } from '../helpers/fixtures.js';
import { bp, m } from '../helpers/blueprints.js';
import { dataOf, failureOf, fieldErrors } from './bodies.js';

/** Three modules: DI-1 fails on the unhandled Sheets write (2), ARC-4 warns on default labels. */
const blueprint = bp([m(1, 'http:ActionSendData'), m(2, 'google-sheets:addRow'), m(3, 'util:SetVariable2')]);
const POLL = { delaysMs: [20, 50], timeoutMs: 20_000 };
const SHEETS_WRITES = ['google-sheets:addRow', 'google-sheets:updateRow'];
const SHEETS_RULE = {
  title: 'Sheets writes need an error handler',
  description: 'Our finance sheets are the system of record.',
  severity: 'high',
  category: 'DI',
  compliance_frameworks: [{ framework: 'SOC 2', control: 'CC7.2' }],
  remediation: 'Add a Break or Resume error handler to the Sheets module.',
  match: { all: [{ module: SHEETS_WRITES }, { has_error_handler: false }] },
};
const WITH_SHEETS = 'order-webhook-router.blueprint.json';
const WITHOUT_SHEETS = 'price-alert.blueprint.json';

interface Pin {
  settings_version: number;
  rules_revision: number;
  catalog_revision: string;
}
interface Results {
  score: number;
  violations: { policy: string; severity: string; failing_modules: { module_id: string }[] }[];
  evaluated_codes: string[];
  governance: Pin;
}
interface Catalog {
  revision: string;
  settings_version?: number;
  rules_revision?: number;
  policies: {
    code: string;
    severity: string;
    effective_severity?: string;
    enabled?: boolean;
    source?: string;
    parameters?: { name: string; value: unknown; default: unknown }[];
  }[];
}
interface Settings {
  version: number;
  disabled_policies: string[];
  severity_overrides: Record<string, string>;
  parameters: Record<string, unknown>;
}
interface Rule {
  code: string;
  title: string;
  revision: number;
  deleted_at: string | null;
}

/** The ids of a blueprint JSON's modules of these types without an error route (flows, routes, error routes). */
function unhandledOf(json: unknown, types: readonly string[]): string[] {
  const out: string[] = [];
  type Raw = { id: number; module: string; onerror?: Raw[]; routes?: { flow: Raw[] }[] };
  const walk = (flow: readonly Raw[] | undefined) => {
    for (const mod of flow ?? []) {
      if (types.includes(mod.module) && (mod.onerror ?? []).length === 0) out.push(String(mod.id));
      walk(mod.onerror);
      for (const r of mod.routes ?? []) walk(r.flow);
    }
  };
  walk((json as { flow: Raw[] }).flow);
  return out.sort((a, b) => Number(a) - Number(b));
}

for (const backend of ['lmdb', 'redis'] as const)
  describe(`governance settings and custom rules (${backend})`, () => {
    let t: TestServer;
    before(async () => {
      // A 2 s scenario budget (default 10 s): a pattern that backtracks fails the test fast.
      const budget = { SCENARIO_TIMEOUT_MS: '2000' };
      t = await startTestServer({ env: backend === 'redis' ? await redisClusterEnv(budget) : budget });
      await importScenario(t.server.store.scenarios, t.orgId, 'g1', JSON.stringify(blueprint));
      await importScenario(t.server.store.scenarios, t.orgId, 'with-sheets', fixtureText(WITH_SHEETS));
      await importScenario(t.server.store.scenarios, t.orgId, 'without-sheets', fixtureText(WITHOUT_SHEETS));
    });
    after(() => t.close());

    let submissions = 0;
    async function evaluate(id: string): Promise<{ results: Results; pin: Pin }> {
      // A distinct query per submission: the same signed request twice within a second is a replay (403).
      const submit = await t.client.call<Reply<StoredSubmitResult>>('POST', `/evaluate?n=${++submissions}`, {
        scenario_ids: [id],
      });
      assert.equal(submit.status, 200, submit.raw);
      const done = await pollEvaluation<Reply<EvaluationStatus & { governance: Pin }>>(
        t.client,
        dataOf(submit).evaluation_id,
        POLL,
      );
      assert.equal(dataOf(done).status, 'complete', done.raw);
      const res = await t.client.call<Reply<Results>>('GET', `/scenarios/${id}/results`);
      assert.equal(res.status, 200, res.raw);
      return { results: dataOf(res), pin: dataOf(done).governance };
    }
    async function catalog(headers: Record<string, string> = {}) {
      return t.client.call<Reply<Catalog>>('GET', '/governance/policies', undefined, { headers });
    }

    it('applies a severity override, a disabled policy and a parameter, and shows them in the effective catalog', async () => {
      const defaults = await t.client.call<Reply<Settings>>('GET', '/governance/settings');
      assert.equal(defaults.status, 200, defaults.raw);
      assert.equal(dataOf(defaults).version, 0);
      assert.equal(defaults.headers['etag'], '"0"');
      const baseline = await evaluate('g1');
      assert.deepEqual(baseline.pin.settings_version, 0);
      const di1 = baseline.results.violations.find((v) => v.policy === 'DI-1');
      assert.equal(di1?.severity, 'medium');
      assert.ok(baseline.results.violations.some((v) => v.policy === 'ARC-4'));
      assert.ok(!baseline.results.violations.some((v) => v.policy === 'ARC-1'));
      const before = await catalog();
      assert.equal(before.status, 200);
      const etag0 = before.headers['etag']!;

      const put = await t.client.call<Reply<Settings>>(
        'PUT',
        '/governance/settings',
        { disabled_policies: ['ARC-4'], severity_overrides: { 'DI-1': 'critical' }, parameters: { max_modules: 2 } },
        { headers: { 'if-match': '"0"' } },
      );
      assert.equal(put.status, 200, put.raw);
      assert.equal(dataOf(put).version, 1);
      assert.equal(put.headers['etag'], '"1"');
      const stale = await t.client.call<Reply<Settings>>(
        'PUT',
        '/governance/settings',
        { disabled_policies: [] },
        { headers: { 'if-match': '"0"' } },
      );
      assert.equal(stale.status, 412, stale.raw);
      assert.equal(failureOf(stale).error, 'Settings version mismatch');

      const tuned = await evaluate('g1');
      assert.deepEqual(tuned.pin, { ...baseline.pin, settings_version: 1 });
      assert.deepEqual(tuned.results.governance, tuned.pin);
      assert.equal(tuned.results.violations.find((v) => v.policy === 'DI-1')?.severity, 'critical');
      assert.ok(!tuned.results.violations.some((v) => v.policy === 'ARC-4'), 'disabled');
      assert.ok(!tuned.results.evaluated_codes.includes('ARC-4'));
      assert.ok(
        tuned.results.violations.some((v) => v.policy === 'ARC-1'),
        '3 modules > max_modules 2',
      );
      assert.ok(tuned.results.score < baseline.results.score);

      const after = await catalog();
      assert.equal(after.status, 200);
      assert.notEqual(after.headers['etag'], etag0, 'the ETag follows the settings');
      const byCode = new Map(dataOf(after).policies.map((p) => [p.code, p]));
      assert.equal(byCode.get('ARC-4')?.enabled, false);
      assert.equal(byCode.get('DI-1')?.effective_severity, 'critical');
      assert.equal(byCode.get('DI-1')?.severity, 'medium');
      assert.deepEqual(
        byCode.get('ARC-1')?.parameters?.find((p) => p.name === 'max_modules'),
        { ...byCode.get('ARC-1')!.parameters!.find((p) => p.name === 'max_modules'), value: 2 },
      );
      assert.equal(dataOf(after).settings_version, 1);
      const cached = await catalog({ 'if-none-match': String(after.headers['etag']) });
      assert.equal(cached.status, 304);
      const oldTag = await catalog({ 'if-none-match': String(etag0) });
      assert.equal(oldTag.status, 200);

      // Back to defaults (a new version), unconditionally.
      const reset = await t.client.call<Reply<Settings>>('PUT', '/governance/settings?reset=1', {});
      assert.equal(dataOf(reset).version, 2);
    });

    it('refuses unknown policies and parameters and out-of-bounds values with field errors', async () => {
      const cases: [unknown, string][] = [
        [{ disabled_policies: ['NOPE-1'] }, '/disabled_policies/0'],
        [{ severity_overrides: { 'DI-1': 'urgent' } }, '/severity_overrides/DI-1'],
        [{ parameters: { no_such: 1 } }, '/parameters/no_such'],
        [{ parameters: { max_modules: 0 } }, '/parameters/max_modules'],
        [{ other: true }, '/other'],
      ];
      for (const [body, path] of cases) {
        const res = await t.client.call<Reply<unknown>>('PUT', '/governance/settings', body);
        assert.equal(res.status, 422, res.raw);
        assert.ok(
          fieldErrors(res).some((e) => e.path === path),
          `${path} in ${res.raw}`,
        );
      }
    });

    it('runs a custom rule like a built-in policy: fires on a blueprint with unhandled Sheets writes, not on one without', async () => {
      const created = await t.client.call<Reply<Rule>>('POST', '/governance/rules', SHEETS_RULE);
      assert.equal(created.status, 201, created.raw);
      const rule = dataOf(created);
      assert.equal(rule.code, 'ORG-1');
      assert.equal(rule.revision, 1);

      const fired = await evaluate('with-sheets');
      assert.equal(fired.pin.rules_revision, 1);
      const expected = unhandledOf(fixtureJson(WITH_SHEETS), SHEETS_WRITES);
      assert.ok(expected.length > 0);
      const violation = fired.results.violations.find((v) => v.policy === 'ORG-1');
      assert.ok(violation, 'ORG-1 fires');
      assert.equal(violation.severity, 'high');
      assert.deepEqual(
        violation.failing_modules.map((f) => f.module_id).sort((a, b) => Number(a) - Number(b)),
        expected,
      );
      const quiet = await evaluate('without-sheets');
      assert.ok(quiet.results.evaluated_codes.includes('ORG-1'), 'it ran');
      assert.ok(!quiet.results.violations.some((v) => v.policy === 'ORG-1'), 'and found nothing');

      const remediation = await t.client.call<Reply<{ steps: string[] }>>(
        'GET',
        '/violations/with-sheets:ORG-1/remediation',
      );
      assert.equal(remediation.status, 200, remediation.raw);
      assert.ok(dataOf(remediation).steps.some((s) => s.includes('error handler')));

      const effective = dataOf(await catalog());
      const listed = effective.policies.find((p) => p.code === 'ORG-1');
      assert.equal(listed?.source, 'custom');
      assert.equal(effective.rules_revision, 1);

      // A waiver can name a custom rule; a disabled custom rule stops running.
      const disable = await t.client.call<Reply<Settings>>('PUT', '/governance/settings', {
        disabled_policies: ['ORG-1'],
      });
      assert.equal(disable.status, 200, disable.raw);
      assert.ok(!(await evaluate('with-sheets')).results.evaluated_codes.includes('ORG-1'));
      await t.client.call('PUT', '/governance/settings?reset=2', {});

      const deleted = await t.client.call<Reply<Rule>>('DELETE', '/governance/rules/ORG-1');
      assert.equal(deleted.status, 200, deleted.raw);
      assert.ok(dataOf(deleted).deleted_at);
      const gone = await evaluate('with-sheets');
      assert.equal(gone.pin.rules_revision, 2);
      assert.ok(!gone.results.violations.some((v) => v.policy === 'ORG-1'));
      const kept = await t.client.call<Reply<Rule>>('GET', '/governance/rules/ORG-1');
      assert.equal(kept.status, 200, 'kept for evaluations pinned to it');
      const list = await t.client.call<Reply<{ revision: number; rules: Rule[] }>>('GET', '/governance/rules');
      assert.deepEqual(dataOf(list).rules, []);
      const again = await t.client.call<Reply<Rule>>('POST', '/governance/rules?again=1', SHEETS_RULE);
      assert.equal(dataOf(again).code, 'ORG-2', 'codes are never reused');
    });

    it('refuses invalid and unsafe rules with field errors, and unknown codes with 404', async () => {
      const cases: [unknown, string][] = [
        [{ ...SHEETS_RULE, code: 'ORG-9' }, '/code'],
        [{ ...SHEETS_RULE, severity: 'urgent' }, '/severity'],
        [{ ...SHEETS_RULE, match: { field: '/mapper/__proto__/x', present: true } }, '/match/field'],
      ];
      for (const [body, path] of cases) {
        const res = await t.client.call<Reply<unknown>>('POST', '/governance/rules', body);
        assert.equal(res.status, 422, res.raw);
        assert.ok(
          fieldErrors(res).some((e) => e.path === path),
          `${path} in ${res.raw}`,
        );
      }
      const missing = await t.client.call<Reply<unknown>>('DELETE', '/governance/rules/ORG-77');
      assert.equal(missing.status, 404);
      assert.equal(failureOf(missing).error, 'Rule not found');
    });

    it('refuses patterns the linear-time engine does not support (back-reference, lookaround) at their pointer', async () => {
      for (const matches of ['(a)\\1', '(?=a)', '(?<=a)b', '(?!a)']) {
        const body = { ...SHEETS_RULE, match: { all: [{ app: 'util' }, { field: '/mapper/value', matches }] } };
        const res = await t.client.call<Reply<unknown>>('POST', '/governance/rules', body);
        assert.equal(res.status, 422, res.raw);
        const [error, ...rest] = fieldErrors(res);
        assert.deepEqual(rest, [], res.raw);
        assert.equal(error?.path, '/match/all/1/matches', res.raw);
        assert.match(error.message, /^uses .*, which the linear-time pattern engine \(RE2 syntax\) does not support$/);
      }
    });

    it('runs a pattern that backtracks catastrophically in JavaScript in linear time: an inline evaluation of 5,000 characters answers with the verdict', async () => {
      const matches = '(a|a)'.repeat(30) + 'b';
      const created = await t.client.call<Reply<Rule>>('POST', '/governance/rules?catastrophic=1', {
        ...SHEETS_RULE,
        title: 'No thirty a then b',
        match: { field: '/mapper/value', matches },
      });
      assert.equal(created.status, 201, created.raw);
      const { code } = dataOf(created);
      const blueprint = bp([
        m(1, 'util:SetVariable2', { mapper: { value: 'a'.repeat(5000) } }),
        m(2, 'util:SetVariable2', { mapper: { value: `${'a'.repeat(30)}b` } }),
      ]);
      const res = await t.client.call<Reply<InlineResult>>('POST', '/evaluate/inline', { blueprint });
      assert.equal(res.status, 200, res.raw);
      const result = dataOf(res);
      assert.ok(result.evaluated_codes.includes(code), 'the rule ran');
      const violation = result.violations.find((v) => v.policy === code);
      assert.deepEqual(
        violation?.failing_modules.map((f) => f.module_id),
        ['2'],
      );
      const deleted = await t.client.call<Reply<Rule>>('DELETE', `/governance/rules/${code}`);
      assert.equal(deleted.status, 200, deleted.raw);
    });
  });
