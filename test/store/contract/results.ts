/**
 * @module test/store/contract/results: the contract of ResultsRepository: after any sequence of
 * imports, evaluation commits (several at once) and deletions, the incrementally kept rollup equals
 * the rebuilt one (rollup = rebuild), both equal a model of the latest results, and the latest
 * results are the ones of the latest evaluation time.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Store } from '../../../src/store/store.js';
import type { RollupContribution, RollupRecord, SeverityName } from '../../../src/model/records.js';
import type { BackendUnderTest } from './backend.js';
import type { ScenarioResults } from '../../../src/client/responses.js';
import type { Policy } from '../../../src/engine/index.js';
import { POLICY_BY_CODE, evaluateBlueprint } from '../../../src/engine/index.js';
import { applyWaivers } from '../../../src/engine/waivers.js';
import { renderResults } from '../../../src/api/views/scenario-results.js';
import { withBackend } from './backend.js';
import {
  advance,
  contribution,
  copied,
  evaluationRecord,
  iso,
  ORG,
  ORG_LONG,
  ORG_PREFIXED,
  resultsJson,
  resultWrite,
  saveScenario,
  withoutTime,
} from './fixtures.js';

/** Seed and runs of the properties: small and fixed by default; GOV_CONTRACT_SEED and GOV_CONTRACT_RUNS explore further. */
const SEED = Number(process.env['GOV_CONTRACT_SEED'] ?? 20_261_215);
const RUNS = Number(process.env['GOV_CONTRACT_RUNS'] ?? 30);
/** Organizations whose ids are prefixes of each other, and one of 64+ units. */
const ORGS = [ORG, ORG_PREFIXED, ORG_LONG] as const;
/** Scenario ids: prefixes of each other, one of 64+ units, non-ASCII. */
const SCENARIOS = ['a', 'ab', 'L'.repeat(70), 'é中😀'] as const;
const CODES = ['SEC-1', 'SEC-2', 'OPS-1', 'DI-3'] as const;
const GAPS = ['SOC 2 CC6.1', 'GDPR Art. 32', 'ISO 27001 A.8.2'] as const;

/** One evaluation of a step: its scenarios, each one's contribution, and whether it lands in two commits. */
interface Run {
  readonly org: number;
  readonly scenarios: readonly { readonly sid: number; readonly c: RollupContribution }[];
  /** Evaluation time, in seconds after T0 (made unique per run by the step and run index). */
  readonly at: number;
  readonly split: boolean;
}
type Step =
  | { readonly kind: 'save' | 'delete'; readonly org: number; readonly sid: number }
  | { readonly kind: 'evaluate'; readonly runs: readonly Run[] };

const contributionArb: fc.Arbitrary<RollupContribution> = fc
  .record({
    score: fc.integer({ min: 0, max: 100 }),
    policies: fc.dictionary(fc.constantFrom(...CODES), fc.integer({ min: 1, max: 5 }), { maxKeys: 3 }),
    gaps: fc.subarray([...GAPS]),
  })
  .chain(({ score, policies, gaps }) => {
    const violations = Object.values(policies).reduce((a, b) => a + b, 0);
    return fc.integer({ min: 0, max: violations }).map((critical) => ({ score, violations, critical, policies, gaps }));
  })
  .chain((c) =>
    // Waived violations (issue 17), or none as in contributions stored before waivers.
    fc
      .option(fc.dictionary(fc.constantFrom(...CODES), fc.integer({ min: 1, max: 4 }), { maxKeys: 2 }), { nil: null })
      .map((waived): RollupContribution => (waived === null ? c : { ...c, waived })),
  )
  .chain((c) =>
    // The worst badge and violations by severity (issue 18), or neither as in contributions stored before them.
    fc
      .option(fc.constantFrom('critical', 'high', 'medium', 'low', 'info') as fc.Arbitrary<SeverityName>, { nil: null })
      .map((worst): RollupContribution => {
        if (worst === null) return c;
        if (c.violations === 0)
          return { ...c, badge: 'clean', severities: { critical: 0, high: 0, medium: 0, low: 0, info: 0 } };
        return {
          ...c,
          badge: worst,
          severities: { critical: 0, high: 0, medium: 0, low: 0, info: 0, [worst]: c.violations },
        };
      }),
  );
const runArb: fc.Arbitrary<Run> = fc.record({
  org: fc.nat(ORGS.length - 1),
  scenarios: fc.uniqueArray(fc.record({ sid: fc.nat(SCENARIOS.length - 1), c: contributionArb }), {
    minLength: 1,
    maxLength: 3,
    selector: (s) => s.sid,
  }),
  at: fc.integer({ min: 0, max: 500 }),
  split: fc.boolean(),
});
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('save' as const),
      org: fc.nat(ORGS.length - 1),
      sid: fc.nat(SCENARIOS.length - 1),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      org: fc.nat(ORGS.length - 1),
      sid: fc.nat(SCENARIOS.length - 1),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('evaluate' as const),
      runs: fc.array(runArb, { minLength: 1, maxLength: 3 }),
    }),
  },
);

/** The model: per organization, its live scenarios and each one's latest results (evaluation, index, time, contribution). */
type Latest = {
  readonly evaluationId: string;
  readonly index: number;
  readonly atMs: number;
  readonly c: RollupContribution;
};
type Model = Map<string, Map<string, Latest | null>>;

/** The rollup the model implies, built without the backend's arithmetic. */
function expectedRollup(model: Model, orgId: string, nowIso: string): RollupRecord {
  const live = model.get(orgId) ?? new Map<string, Latest | null>();
  const policies: Record<string, { count: number; scenarios: number }> = {};
  const gaps: Record<string, number> = {};
  const waived: Record<string, number> = {};
  const badges: Record<string, number> = {};
  let evaluated = 0,
    score = 0,
    violations = 0,
    critical = 0,
    waivedTotal = 0;
  for (const latest of live.values()) {
    if (!latest) continue;
    evaluated++;
    score += latest.c.score;
    violations += latest.c.violations;
    critical += latest.c.critical;
    for (const [code, n] of Object.entries(latest.c.policies)) {
      const cur = policies[code] ?? { count: 0, scenarios: 0 };
      policies[code] = { count: cur.count + n, scenarios: cur.scenarios + 1 };
    }
    for (const g of latest.c.gaps) gaps[g] = (gaps[g] ?? 0) + 1;
    for (const [code, n] of Object.entries(latest.c.waived ?? {})) {
      waivedTotal += n;
      waived[code] = (waived[code] ?? 0) + 1;
    }
    // Older contributions without `badge`: derived from what they tell (issue 18).
    const badge =
      latest.c.badge ?? (latest.c.violations === 0 ? 'clean' : latest.c.critical > 0 ? 'critical' : 'unknown');
    badges[badge] = (badges[badge] ?? 0) + 1;
  }
  return {
    org_id: orgId,
    scenarios_total: live.size,
    scenarios_evaluated: evaluated,
    score_sum: score,
    violations_total: violations,
    critical_total: critical,
    policies,
    gaps,
    waived_total: waivedTotal,
    waived,
    badges,
    updated_at: nowIso,
  };
}

/** Creates evaluation `evaluationId` of `run` and commits its results at `atMs` after T0, in one or two commits. */
async function evaluate(store: Store, run: Run, evaluationId: string, atMs: number): Promise<void> {
  const orgId = ORGS[run.org]!;
  const sids = run.scenarios.map((s) => SCENARIOS[s.sid]!);
  const versions: number[] = [];
  for (const sid of sids) versions.push((await store.scenarios.get(orgId, sid))?.version ?? 0);
  const record = evaluationRecord(evaluationId, orgId, sids, { versions });
  await store.evaluations.create(record);
  const writes = run.scenarios.map((s, i) => resultWrite(evaluationId, i, s.c, iso(atMs)));
  const cut = run.split ? Math.ceil(writes.length / 2) : 0;
  if (cut > 0)
    await store.evaluations.commit({
      record: advance(
        record,
        'processing',
        writes.slice(0, cut).map((w) => w.index),
      ),
      results: writes.slice(0, cut),
    });
  await store.evaluations.commit({
    record: advance(
      record,
      'complete',
      writes.map((w) => w.index),
    ),
    results: writes.slice(cut),
  });
}

/** Runs one step on the store and on the model. */
async function apply(store: Store, model: Model, step: Step, stepIndex: number): Promise<void> {
  if (step.kind !== 'evaluate') {
    const orgId = ORGS[step.org]!;
    const sid = SCENARIOS[step.sid]!;
    if (step.kind === 'save') {
      await saveScenario(store, orgId, sid, undefined, stepIndex);
      const live = model.get(orgId) ?? new Map<string, Latest | null>();
      model.set(orgId, live);
      if (!live.has(sid)) live.set(sid, null);
    } else {
      assert.equal(await store.scenarios.delete(orgId, sid, iso(stepIndex)), model.get(orgId)?.delete(sid) ?? false);
    }
    return;
  }
  // Several evaluations commit at once (the backend may batch them); each time is unique, so the model's order does not matter.
  await Promise.all(
    step.runs.map((run, r) => evaluate(store, run, `ev_${stepIndex}_${r}`, run.at * 1_000 + stepIndex * 10 + r)),
  );
  for (const [r, run] of step.runs.entries()) {
    const live = model.get(ORGS[run.org]!);
    const atMs = run.at * 1_000 + stepIndex * 10 + r;
    for (const [index, s] of run.scenarios.entries()) {
      const sid = SCENARIOS[s.sid]!;
      if (!live?.has(sid)) continue; // a scenario that does not exist gets no results
      const cur = live.get(sid);
      if (!cur || cur.atMs < atMs) live.set(sid, { evaluationId: `ev_${stepIndex}_${r}`, index, atMs, c: s.c });
    }
  }
}

/** Registers the results suite for `backend`. */
export function resultsContract(backend: BackendUnderTest): void {
  describe(`results contract (${backend.name})`, () => {
    it('keeps rollup = rebuild = model, and the latest results, through random imports, concurrent commits and deletions', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), (steps) =>
          withBackend(backend, async ({ store }) => {
            const model: Model = new Map();
            for (const [i, step] of steps.entries()) await apply(store, model, step, i);
            const nowIso = iso(3_600_000);
            for (const orgId of ORGS) {
              const computed = await store.results.computeRollup(orgId, nowIso);
              assert.deepEqual(computed, expectedRollup(model, orgId, nowIso), `computeRollup(${orgId})`);
              const kept = await store.results.rollup(orgId);
              if (model.has(orgId)) {
                assert.ok(kept, `rollup(${orgId}) after an import`);
                assert.deepEqual(withoutTime(kept), withoutTime(computed), `rollup(${orgId}) = rebuild`);
              } else {
                assert.equal(kept, undefined, `rollup(${orgId}) before any import`);
              }
              for (const [sid, latest] of model.get(orgId) ?? []) {
                const json = copied(await store.results.latestJson(orgId, sid))?.toString('utf8');
                assert.equal(
                  json,
                  latest ? resultsJson(latest.evaluationId, latest.index, latest.c.score) : undefined,
                  `latest results of ${sid}`,
                );
              }
              for (const sid of SCENARIOS)
                if (!model.get(orgId)?.has(sid)) assert.equal(await store.results.latestJson(orgId, sid), undefined);
            }
          }),
        ),
        { seed: SEED, numRuns: RUNS },
      );
    });

    it('keeps rollup = rebuild when imports, deletions and commits all run at once', async () => {
      const opArb = fc.oneof(
        fc.record({
          kind: fc.constantFrom('save' as const, 'delete' as const),
          org: fc.nat(ORGS.length - 1),
          sid: fc.nat(SCENARIOS.length - 1),
        }),
        fc.record({ kind: fc.constant('evaluate' as const), run: runArb }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(opArb, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 5 }),
          (groups) =>
            withBackend(backend, async ({ store }) => {
              const imported = new Set<string>();
              for (const [g, ops] of groups.entries()) {
                // No model: the order of concurrent operations is the backend's; whatever it is, the kept rollup must equal the rebuilt one.
                await Promise.all(
                  ops.map(async (op, i) => {
                    if (op.kind === 'evaluate')
                      return evaluate(store, op.run, `ev_${g}_${i}`, op.run.at * 1_000 + g * 10 + i);
                    const orgId = ORGS[op.org]!;
                    if (op.kind === 'delete')
                      return void (await store.scenarios.delete(orgId, SCENARIOS[op.sid]!, iso(g)));
                    imported.add(orgId);
                    return void (await saveScenario(store, orgId, SCENARIOS[op.sid]!, undefined, g));
                  }),
                );
              }
              const nowIso = iso(3_600_000);
              for (const orgId of ORGS) {
                const computed = await store.results.computeRollup(orgId, nowIso);
                const listed = (await store.scenarios.list(orgId)).map((s) => s.scenario_id);
                assert.equal(computed.scenarios_total, listed.length);
                let evaluated = 0;
                for (const sid of listed) if ((await store.results.latestJson(orgId, sid)) !== undefined) evaluated++;
                assert.equal(computed.scenarios_evaluated, evaluated);
                const kept = await store.results.rollup(orgId);
                if (!imported.has(orgId)) assert.equal(kept, undefined);
                else assert.deepEqual(withoutTime(kept!), withoutTime(computed), `rollup(${orgId}) = rebuild`);
              }
            }),
        ),
        { seed: SEED, numRuns: Math.ceil(RUNS * 0.8) },
      );
    });

    it('rebuilds a rollup into exactly what computeRollup gives, and keeps it', () =>
      withBackend(backend, async ({ store }) => {
        await saveScenario(store, ORG, 'a');
        await saveScenario(store, ORG, 'L'.repeat(70));
        const record = evaluationRecord('ev_1', ORG, ['a', 'L'.repeat(70)]);
        await store.evaluations.create(record);
        await store.evaluations.commit({
          record: advance(record, 'complete', [0, 1]),
          results: [
            resultWrite(
              'ev_1',
              0,
              {
                score: 55,
                violations: 3,
                critical: 1,
                policies: { 'SEC-1': 1, 'OPS-1': 2 },
                gaps: ['GDPR Art. 32'],
                waived: { 'DI-3': 2 },
              },
              iso(1_000),
            ),
            resultWrite(
              'ev_1',
              1,
              {
                score: 65,
                violations: 1,
                critical: 0,
                policies: { 'OPS-1': 1 },
                gaps: ['GDPR Art. 32', 'SOC 2 CC6.1'],
                waived: { 'DI-3': 1, 'SEC-2': 3 },
              },
              iso(1_000),
            ),
          ],
        });
        const nowIso = iso(9_000);
        const rebuilt = await store.results.rebuildRollup(ORG, nowIso);
        assert.deepEqual(rebuilt, await store.results.computeRollup(ORG, nowIso));
        assert.deepEqual(rebuilt, {
          org_id: ORG,
          scenarios_total: 2,
          scenarios_evaluated: 2,
          score_sum: 120,
          violations_total: 4,
          critical_total: 1,
          policies: { 'SEC-1': { count: 1, scenarios: 1 }, 'OPS-1': { count: 3, scenarios: 2 } },
          gaps: { 'GDPR Art. 32': 2, 'SOC 2 CC6.1': 1 },
          waived_total: 6,
          waived: { 'DI-3': 2, 'SEC-2': 1 },
          badges: { critical: 1, unknown: 1 },
          updated_at: nowIso,
        });
        assert.deepEqual(await store.results.rollup(ORG), rebuilt);
        const empty = await store.results.rebuildRollup(ORG_PREFIXED, nowIso);
        assert.deepEqual(empty, {
          org_id: ORG_PREFIXED,
          scenarios_total: 0,
          scenarios_evaluated: 0,
          score_sum: 0,
          violations_total: 0,
          critical_total: 0,
          policies: {},
          gaps: {},
          waived_total: 0,
          waived: {},
          badges: {},
          updated_at: nowIso,
        });
        assert.deepEqual(await store.results.rollup(ORG_PREFIXED), empty);
      }));

    it("removes a policy's waived entry when its last waived scenario loses it, keeping rollup = rebuild", () =>
      withBackend(backend, async ({ store }) => {
        for (const sid of ['a', 'ab']) await saveScenario(store, ORG, sid);
        const c = (waived?: Record<string, number>): RollupContribution => ({
          ...{ score: 80, violations: 1, critical: 0, policies: { 'OPS-1': 1 }, gaps: [] },
          ...(waived === undefined ? {} : { waived }),
        });
        let n = 0;
        const land = async (sid: 'a' | 'ab', contribution: RollupContribution) => {
          const id = `ev_${++n}`;
          const record = evaluationRecord(id, ORG, [sid]);
          await store.evaluations.create(record);
          await store.evaluations.commit({
            record: advance(record, 'complete', [0]),
            results: [resultWrite(id, 0, contribution, iso(n * 1_000))],
          });
          const kept = await store.results.rollup(ORG);
          assert.ok(kept);
          assert.deepEqual(
            withoutTime(kept),
            withoutTime(await store.results.computeRollup(ORG, iso())),
            'rollup = rebuild',
          );
          return kept;
        };
        await land('a', c({ 'SEC-1': 2, 'DI-3': 1 }));
        let r = await land('ab', c({ 'SEC-1': 1 }));
        assert.deepEqual([r.waived_total, r.waived], [4, { 'SEC-1': 2, 'DI-3': 1 }]);
        r = await land('a', c({ 'SEC-1': 3 }));
        assert.deepEqual([r.waived_total, r.waived], [4, { 'SEC-1': 2 }], 'DI-3 dropped to 0 scenarios');
        r = await land('ab', c());
        assert.deepEqual([r.waived_total, r.waived], [3, { 'SEC-1': 1 }], 'a contribution without waived');
        r = await land('a', c({}));
        assert.deepEqual([r.waived_total, r.waived], [0, {}]);
        await land('ab', c({ 'OPS-1': 2 }));
        assert.equal(await store.scenarios.delete(ORG, 'ab', iso(99_000)), true);
        const after = await store.results.rollup(ORG);
        assert.deepEqual(
          [after?.waived_total, after?.waived],
          [0, {}],
          'deleting the scenario removes its waived counts',
        );
        assert.deepEqual(withoutTime(after!), withoutTime(await store.results.computeRollup(ORG, iso())));
      }));

    it("keeps a finding's evidence path and risk row (issue 32) in the stored results, byte for byte", () =>
      withBackend(backend, async ({ store }) => {
        await saveScenario(store, ORG, 'a');
        const rendered = renderedWithEvidence();
        const record = evaluationRecord('ev_1', ORG, ['a']);
        await store.evaluations.create(record);
        const write = resultWrite('ev_1', 0, contribution(70, { 'SEC-7': 1 }), iso(1_000));
        await store.evaluations.commit({
          record: advance(record, 'complete', [0]),
          results: [{ ...write, results: Buffer.from(rendered, 'utf8') }],
        });
        const stored = copied(await store.results.latestJson(ORG, 'a'))!.toString('utf8');
        assert.equal(stored, rendered);
        const finding = (JSON.parse(stored) as ScenarioResults).violations[0]!.failing_modules[0]!;
        assert.deepEqual(
          finding.evidence?.path?.map((s) => [s.module_id, s.role]),
          [
            ['1', 'source'],
            ['2', 'step'],
            ['3', 'sink'],
          ],
        );
        assert.equal(finding.evidence?.risk?.row, 'R1');
      }));
  });
}

/** Results JSON as the worker renders it, of a real evaluation whose one finding has an evidence path and a risk row. */
function renderedWithEvidence(): string {
  const flow = {
    name: 'evidence',
    flow: [
      { id: 1, module: 'gateway:CustomWebHook', version: 1, parameters: { hook: 1 }, mapper: {} },
      { id: 2, module: 'util:SetVariables', version: 1, mapper: { variables: [{ name: 'x', value: '{{1.x}}' }] } },
      { id: 3, module: 'code:ExecuteCode', version: 1, mapper: { code: 'return x', input: '{{2.x}}' } },
    ],
    metadata: { version: 1, scenario: {} },
  };
  const withRisk: Policy = {
    ...POLICY_BY_CODE.get('SEC-7')!,
    code: 'ORG-7',
    evaluate: (analysis, params) => {
      const outcome = POLICY_BY_CODE.get('SEC-7')!.evaluate(analysis, params);
      if (!outcome) return null;
      const risk = {
        id: 'R1',
        title: 'Code on untrusted input',
        severity: 'high' as const,
        trust: 'public-webhook' as const,
      };
      return { ...outcome, findings: outcome.findings.map((f) => ({ ...f, risk })) };
    },
  };
  const r = evaluateBlueprint(flow, { scenarioId: 'a', include: ['ORG-7'], extraPolicies: [withRisk] });
  assert.ok(r.ok);
  const pin = { settings_version: 0, rules_revision: 0, catalog_revision: 'test' };
  return renderResults('a', applyWaivers(r.evaluation, []), 'ev_1', iso(1_000), pin);
}
