/**
 * @module test/store/contract/evaluations: the contract of EvaluationsRepository: records and their
 * status views, the open index, crash-safe (all-or-nothing) state changes with their results, expiry,
 * retention, deletion, and single use of result tokens.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../../src/store/store.js';
import type { EvaluationRecord } from '../../../src/model/records.js';
import type { BackendUnderTest } from './backend.js';
import { renderEvaluationView } from '../../../src/api/views/evaluation.js';
import { withBackend } from './backend.js';
import {
  advance,
  contribution,
  copied,
  evaluationRecord,
  iso,
  ORG,
  ORG_PREFIXED,
  resultsJson,
  resultWrite,
  saveScenario,
  summary,
  deliveryRecord,
  T0,
  webhookRecord,
  withoutTime,
} from './fixtures.js';

/** Everything a commit may change, read through the public interface (byte results copied). */
async function snapshot(store: Store, record: EvaluationRecord, webhookId: string) {
  const view = await store.evaluations.view(record.evaluation_id);
  const viewCopy = view && { ...view, json: Buffer.from(view.json).toString('utf8') };
  const evaluation = await store.evaluations.get(record.evaluation_id);
  const open = (await store.evaluations.listOpen()).map((r) => r.evaluation_id).sort();
  // One read at a time: latestJson's bytes are only valid until the next read, so each is copied first.
  const results = [];
  for (const [i, sid] of record.scenario_ids.entries()) {
    results.push({
      latest: copied(await store.results.latestJson(record.org_id, sid))?.toString('utf8'),
      remediation: await store.results.remediation(record.org_id, sid),
      own: copied(await store.evaluations.scenarioResults(record.evaluation_id, i))?.toString('utf8'),
    });
  }
  return {
    record: evaluation,
    view: viewCopy,
    open,
    results,
    rollup: await store.results.rollup(record.org_id),
    outbox: await store.webhooks.nextPending(webhookId),
    log: await store.webhooks.deliveries(webhookId, 10),
    pendingEndpoints: await store.webhooks.endpointsWithPending(),
  };
}

/** The view as a plain object: `json` parsed (it is only valid until the next read). */
async function viewOf(store: Store, evaluationId: string) {
  const view = await store.evaluations.view(evaluationId);
  return (
    view && {
      orgId: view.orgId,
      expiresAt: view.expiresAt,
      errorJson: view.errorJson,
      data: JSON.parse(Buffer.from(view.json).toString('utf8')) as unknown,
    }
  );
}

/** Registers the evaluations suite for `backend`. */
export function evaluationsContract(backend: BackendUnderTest): void {
  describe(`evaluations contract (${backend.name})`, () => {
    it('stores a new evaluation with its status view, and lists it as open', () =>
      withBackend(backend, async ({ store }) => {
        const stored = evaluationRecord('ev_1', ORG, ['s1', 's2']);
        const ephemeral = evaluationRecord('ev_2', 'org_é中😀', ['blueprint-0'], { expiresAt: T0 + 60_000 });
        await store.evaluations.create(stored);
        await store.evaluations.create(ephemeral);
        assert.deepEqual(await store.evaluations.get('ev_1'), stored);
        assert.deepEqual(await viewOf(store, 'ev_1'), {
          orgId: ORG,
          expiresAt: null,
          errorJson: null,
          data: JSON.parse(renderEvaluationView(stored)) as unknown,
        });
        assert.deepEqual(await viewOf(store, 'ev_2'), {
          orgId: 'org_é中😀',
          expiresAt: T0 + 60_000,
          errorJson: null,
          data: JSON.parse(renderEvaluationView(ephemeral)) as unknown,
        });
        assert.equal(((await viewOf(store, 'ev_1'))?.data as { status: string }).status, 'pending');
        assert.deepEqual((await store.evaluations.listOpen()).map((r) => r.evaluation_id).sort(), ['ev_1', 'ev_2']);
        assert.deepEqual(await store.evaluations.countOpen(), { pending: 2, processing: 0 });
        assert.equal(await store.evaluations.get('ev_3'), undefined);
        assert.equal(await store.evaluations.view('ev_3'), undefined);
      }));

    it('commits transitions: processing stays open, a terminal state leaves the open index and rewrites the view', () =>
      withBackend(backend, async ({ store }) => {
        const a = evaluationRecord('ev_a', ORG, ['s1', 's2']);
        const b = evaluationRecord('ev_b', ORG, ['s1']);
        await store.evaluations.create(a);
        await store.evaluations.create(b);
        const processing = advance(a, 'processing', [0]);
        assert.deepEqual(await store.evaluations.commit({ record: processing }), { webhookIds: [] });
        assert.deepEqual(await store.evaluations.get('ev_a'), processing);
        assert.deepEqual(await store.evaluations.countOpen(), { pending: 1, processing: 1 });
        assert.deepEqual((await store.evaluations.listOpen()).map((r) => r.evaluation_id).sort(), ['ev_a', 'ev_b']);

        const complete = advance(processing, 'complete', [0, 1], 2_000);
        const failed = advance(b, 'error', [], 2_000);
        await Promise.all([
          store.evaluations.commit({ record: complete }),
          store.evaluations.commit({ record: failed }),
        ]);
        assert.deepEqual(await store.evaluations.get('ev_a'), complete);
        assert.deepEqual(await viewOf(store, 'ev_a'), {
          orgId: ORG,
          expiresAt: null,
          errorJson: null,
          data: JSON.parse(renderEvaluationView(complete)) as unknown,
        });
        assert.equal(((await viewOf(store, 'ev_a'))?.data as { scenarios: unknown[] }).scenarios.length, 2);
        assert.deepEqual(await viewOf(store, 'ev_b'), {
          orgId: ORG,
          expiresAt: null,
          errorJson: JSON.stringify(failed.error),
          data: JSON.parse(renderEvaluationView(failed)) as unknown,
        });
        assert.deepEqual(await store.evaluations.listOpen(), []);
        assert.deepEqual(await store.evaluations.countOpen(), { pending: 0, processing: 0 });
      }));

    it("lands a stored batch's results as the scenarios' latest results and in the rollup", () =>
      withBackend(backend, async ({ store }) => {
        await saveScenario(store, ORG, 's1');
        await saveScenario(store, ORG, 's2');
        const record = evaluationRecord('ev_1', ORG, ['s1', 's2']);
        await store.evaluations.create(record);
        const remediation = { 'SEC-1': '{"steps":["move the key to a connection"]}', 'OPS-2': null };
        await store.evaluations.commit({
          record: advance(record, 'processing', [0]),
          results: [resultWrite('ev_1', 0, contribution(40, { 'SEC-1': 3 }, ['SOC 2 CC6.1']), iso(1_000), remediation)],
        });
        assert.equal(copied(await store.results.latestJson(ORG, 's1'))?.toString('utf8'), resultsJson('ev_1', 0, 40));
        assert.deepEqual(await store.results.remediation(ORG, 's1'), remediation);
        assert.equal(
          copied(await store.evaluations.scenarioResults('ev_1', 0))?.toString('utf8'),
          resultsJson('ev_1', 0, 40),
        );
        assert.equal(await store.results.latestJson(ORG, 's2'), undefined);
        assert.equal(await store.evaluations.scenarioResults('ev_1', 1), undefined);

        await store.evaluations.commit({
          record: advance(record, 'complete', [0, 1]),
          results: [resultWrite('ev_1', 1, contribution(100), iso(1_000), {})],
        });
        assert.equal(copied(await store.results.latestJson(ORG, 's2'))?.toString('utf8'), resultsJson('ev_1', 1, 100));
        assert.deepEqual(await store.results.remediation(ORG, 's2'), {});
        const rollup = await store.results.rollup(ORG);
        assert.ok(rollup);
        assert.deepEqual(withoutTime(rollup), {
          org_id: ORG,
          scenarios_total: 2,
          scenarios_evaluated: 2,
          score_sum: 140,
          violations_total: 3,
          critical_total: 3,
          policies: { 'SEC-1': { count: 3, scenarios: 1 } },
          gaps: { 'SOC 2 CC6.1': 1 },
          waived_total: 0,
          waived: {},
          badges: { critical: 1, clean: 1 }, // derived: the fixtures carry no badge
        });
        assert.equal(await store.results.rollup(ORG_PREFIXED), undefined);
      }));

    it('updates read-modify-write atomically: 12 concurrent updates of disjoint scenarios all land, results and rollup once each', () =>
      withBackend(backend, async ({ store }) => {
        const ids = Array.from({ length: 12 }, (_, i) => `s${i}`);
        for (const id of ids) await saveScenario(store, ORG, id);
        const record = evaluationRecord('ev_u', ORG, ids);
        await store.evaluations.create(record);
        const endpoint = webhookRecord('wh_u', ORG);
        assert.equal(await store.webhooks.create(endpoint, 10), true);
        let decided = 0;
        /** Fills scenario `i` unless it is filled; the last one completes the evaluation with one delivery. */
        const fill = (i: number) => (current: EvaluationRecord) => {
          decided++;
          if (current.scenarios[i] !== null) return undefined;
          const scenarios = current.scenarios.map((s, j) => (j === i ? summary(current, i, 50) : s));
          const completed = current.completed + 1;
          const done = completed === current.total_scenarios;
          const next: EvaluationRecord = {
            ...current,
            status: done ? 'complete' : 'processing',
            scenarios,
            completed,
            completed_at: done ? iso(5_000) : null,
            updated_at: iso(5_000),
          };
          return {
            record: next,
            results: [resultWrite('ev_u', i, contribution(50, { 'OPS-1': 1 }), iso(5_000))],
            ...(done ? { deliveries: () => [deliveryRecord(endpoint, 'ev_u', 5_000)] } : {}),
          };
        };
        const receipts = await Promise.all(ids.map((_, i) => store.evaluations.update('ev_u', fill(i))));
        assert.ok(decided >= 12, 'decide runs at least once per update');
        assert.ok(receipts.every((r) => r !== undefined));
        const stored = await store.evaluations.get('ev_u');
        assert.equal(stored?.status, 'complete');
        assert.equal(stored?.completed, 12);
        assert.ok(stored?.scenarios.every((s) => s !== null));
        assert.deepEqual(
          receipts.filter((r) => r.webhookIds.length > 0).map((r) => r.webhookIds),
          [['wh_u']],
          'exactly one update completed it and enqueued its event',
        );
        assert.equal((await store.webhooks.nextPending('wh_u'))?.evaluation_id, 'ev_u');
        const rollup = await store.results.rollup(ORG);
        assert.equal(rollup?.scenarios_evaluated, 12);
        assert.equal(rollup?.score_sum, 600);
        assert.deepEqual(rollup?.policies, { 'OPS-1': { count: 12, scenarios: 12 } });
        assert.deepEqual(await store.evaluations.listOpen(), []);
        // Applied again (a chunk re-run after a node died): declined, nothing changes.
        assert.equal(await store.evaluations.update('ev_u', fill(3)), undefined);
        assert.deepEqual(await store.evaluations.get('ev_u'), stored);
        assert.equal((await store.results.rollup(ORG))?.score_sum, 600);
      }));

    it('update of an unknown evaluation writes nothing and does not call decide', () =>
      withBackend(backend, async ({ store }) => {
        let called = false;
        const receipt = await store.evaluations.update('ev_missing', (r) => {
          called = true;
          return { record: r };
        });
        assert.equal(receipt, undefined);
        assert.equal(called, false);
        assert.equal(await store.evaluations.get('ev_missing'), undefined);
      }));

    it('keeps newer latest results when an older evaluation commits later', () =>
      withBackend(backend, async ({ store }) => {
        await saveScenario(store, ORG, 's1');
        const older = evaluationRecord('ev_old', ORG, ['s1']);
        const newer = evaluationRecord('ev_new', ORG, ['s1']);
        await store.evaluations.create(older);
        await store.evaluations.create(newer);
        await store.evaluations.commit({
          record: advance(newer, 'complete', [0]),
          results: [resultWrite('ev_new', 0, contribution(90), iso(5_000), { 'OPS-1': null })],
        });
        await store.evaluations.commit({
          record: advance(older, 'complete', [0]),
          results: [resultWrite('ev_old', 0, contribution(10, { 'SEC-1': 4 }), iso(1_000))],
        });
        assert.equal(copied(await store.results.latestJson(ORG, 's1'))?.toString('utf8'), resultsJson('ev_new', 0, 90));
        assert.deepEqual(await store.results.remediation(ORG, 's1'), { 'OPS-1': null });
        assert.equal(
          copied(await store.evaluations.scenarioResults('ev_old', 0))?.toString('utf8'),
          resultsJson('ev_old', 0, 10),
          'the evaluation keeps its own results',
        );
        const rollup = await store.results.rollup(ORG);
        assert.equal(rollup?.scenarios_evaluated, 1);
        assert.equal(rollup?.score_sum, 90);
        assert.deepEqual(rollup?.policies, {});
      }));

    it('does not roll up results of a scenario deleted while it was evaluated', () =>
      withBackend(backend, async ({ store }) => {
        await saveScenario(store, ORG, 's1');
        await saveScenario(store, ORG, 's2');
        const record = evaluationRecord('ev_1', ORG, ['s1', 's2']);
        await store.evaluations.create(record);
        assert.equal(await store.scenarios.delete(ORG, 's1', iso(500)), true);
        await store.evaluations.commit({
          record: advance(record, 'complete', [0, 1]),
          results: [
            resultWrite('ev_1', 0, contribution(10, { 'SEC-1': 1 }), iso(1_000)),
            resultWrite('ev_1', 1, contribution(70), iso(1_000)),
          ],
        });
        assert.equal(await store.results.latestJson(ORG, 's1'), undefined);
        assert.equal(await store.results.remediation(ORG, 's1'), undefined);
        const rollup = await store.results.rollup(ORG);
        assert.ok(rollup);
        assert.deepEqual(withoutTime(rollup), withoutTime(await store.results.computeRollup(ORG, iso())));
        assert.equal(rollup.scenarios_total, 1);
        assert.equal(rollup.scenarios_evaluated, 1);
        assert.equal(rollup.score_sum, 70);
      }));

    it('rolls back a commit whose deliveries throw: record, view, results, rollup and outbox stay as before', () =>
      withBackend(backend, async ({ store }) => {
        await saveScenario(store, ORG, 's1');
        await saveScenario(store, ORG, 's2');
        const endpoint = webhookRecord('wh_1', ORG);
        assert.equal(await store.webhooks.create(endpoint, 10), true);
        const record = evaluationRecord('ev_1', ORG, ['s1', 's2']);
        await store.evaluations.create(record);
        const processing = advance(record, 'processing', [0]);
        await store.evaluations.commit({
          record: processing,
          results: [resultWrite('ev_1', 0, contribution(50, { 'SEC-1': 1 }), iso(1_000))],
        });
        const before = await snapshot(store, record, 'wh_1');

        // A sibling commit in the same turn must land although the failing one is rolled back.
        const sibling = evaluationRecord('ev_2', ORG, ['s2']);
        await store.evaluations.create(sibling);
        const [failed, landed] = await Promise.allSettled([
          store.evaluations.commit({
            record: advance(processing, 'complete', [0, 1], 2_000),
            results: [resultWrite('ev_1', 1, contribution(20, { 'OPS-2': 2 }, ['GDPR Art. 32']), iso(2_000))],
            deliveries: (endpoints) => {
              if (endpoints.length > 0) throw new Error('outbox write failed');
              return [];
            },
          }),
          store.evaluations.commit({ record: advance(sibling, 'processing') }),
        ]);
        assert.equal(failed.status, 'rejected');
        assert.equal((failed.reason as Error).message, 'outbox write failed');
        assert.equal(landed.status, 'fulfilled');
        assert.equal((await store.evaluations.get('ev_2'))?.status, 'processing');
        const after = await snapshot(store, record, 'wh_1');
        assert.deepEqual(after, { ...before, open: [...before.open, 'ev_2'].sort() });
        assert.equal(after.record?.status, 'processing');
        assert.equal(after.results[1]?.own, undefined);
        assert.equal(after.outbox, undefined);
        assert.deepEqual(after.pendingEndpoints, []);
      }));

    it('keeps committed state across a reopen and lists open evaluations again', () =>
      withBackend(backend, async (opened) => {
        await saveScenario(opened.store, ORG, 's1');
        const open = evaluationRecord('ev_open', ORG, ['s1', 's1']);
        const done = evaluationRecord('ev_done', ORG, ['s1']);
        const ephemeral = evaluationRecord('ev_eph', ORG, ['blueprint-0'], { expiresAt: T0 + 1_000 });
        for (const r of [open, done, ephemeral]) await opened.store.evaluations.create(r);
        const processing = advance(open, 'processing', [0]);
        await opened.store.evaluations.commit({
          record: processing,
          results: [resultWrite('ev_open', 0, contribution(75), iso(1_000))],
        });
        await opened.store.evaluations.commit({ record: advance(done, 'complete', [0]) });
        await opened.store.flushed();
        const rollupBefore = await opened.store.results.rollup(ORG);

        const store = await opened.reopen();
        assert.deepEqual(await store.evaluations.get('ev_open'), processing);
        assert.deepEqual(await viewOf(store, 'ev_open'), {
          orgId: ORG,
          expiresAt: null,
          errorJson: null,
          data: JSON.parse(renderEvaluationView(processing)) as unknown,
        });
        assert.deepEqual((await store.evaluations.listOpen()).map((r) => r.evaluation_id).sort(), [
          'ev_eph',
          'ev_open',
        ]);
        assert.deepEqual(await store.evaluations.countOpen(), { pending: 1, processing: 1 });
        assert.equal(
          copied(await store.results.latestJson(ORG, 's1'))?.toString('utf8'),
          resultsJson('ev_open', 0, 75),
        );
        assert.deepEqual(await store.results.rollup(ORG), rollupBefore);
        assert.equal(await store.evaluations.purgeExpired(T0 + 2_000, () => false), 1, 'the expiry index survives too');
      }));

    it('purges only evaluations that expired before now (not at now), and skips busy ones', () =>
      withBackend(backend, async ({ store }) => {
        const now = T0 + 60_000;
        const long = `ev_${'l'.repeat(70)}`;
        const records = [
          evaluationRecord('ev_past', ORG, ['b'], { expiresAt: now - 1 }),
          evaluationRecord(long, ORG, ['b'], { expiresAt: now - 1 }),
          evaluationRecord('ev_busy', ORG, ['b'], { expiresAt: now - 5_000 }),
          evaluationRecord('ev_now', ORG, ['b'], { expiresAt: now }),
          evaluationRecord('ev_future', ORG, ['b'], { expiresAt: now + 1 }),
          evaluationRecord('ev_stored', ORG, ['s1']),
        ];
        for (const r of records) await store.evaluations.create(r);
        await store.evaluations.commit({ record: advance(records[0]!, 'complete', [0]) });
        const busy = new Set(['ev_busy']);
        assert.equal(await store.evaluations.purgeExpired(now, (id) => busy.has(id)), 2);
        for (const id of ['ev_past', long]) {
          assert.equal(await store.evaluations.get(id), undefined, id);
          assert.equal(await store.evaluations.view(id), undefined, id);
        }
        for (const id of ['ev_busy', 'ev_now', 'ev_future', 'ev_stored'])
          assert.ok(await store.evaluations.get(id), id);
        assert.deepEqual((await store.evaluations.listOpen()).map((r) => r.evaluation_id).sort(), [
          'ev_busy',
          'ev_future',
          'ev_now',
          'ev_stored',
        ]);
        assert.equal(await store.evaluations.purgeExpired(now, (id) => busy.has(id)), 0);
        busy.clear();
        assert.equal(await store.evaluations.purgeExpired(now, (id) => busy.has(id)), 1);
        assert.equal(await store.evaluations.get('ev_busy'), undefined);
        assert.equal(await store.evaluations.purgeExpired(now + 2, () => false), 2);
        assert.deepEqual(
          (await store.evaluations.listOpen()).map((r) => r.evaluation_id),
          ['ev_stored'],
        );
        assert.equal(
          await store.evaluations.purgeExpired(now + 3_600_000, () => false),
          0,
          'stored evaluations never expire',
        );
      }));

    it('does not take results of a scenario deleted and imported again while it was evaluated', () =>
      withBackend(backend, async ({ store }) => {
        await saveScenario(store, ORG, 's1');
        await saveScenario(store, ORG, 's1');
        const record = evaluationRecord('ev_1', ORG, ['s1'], { versions: [2] });
        await store.evaluations.create(record);
        assert.equal(await store.scenarios.delete(ORG, 's1', iso(500)), true);
        await saveScenario(store, ORG, 's1');
        await store.evaluations.commit({
          record: advance(record, 'complete', [0]),
          results: [resultWrite('ev_1', 0, contribution(10), iso(1_000))],
        });
        assert.equal(
          await store.results.latestJson(ORG, 's1'),
          undefined,
          "version 2 of the old scenario is not the new one's results",
        );
        assert.equal((await store.results.rollup(ORG))?.scenarios_evaluated, 0);
        assert.equal((await store.evaluations.get('ev_1'))?.status, 'complete');
      }));

    it('leaves an evaluation deleted while it ran deleted: later commits write nothing', () =>
      withBackend(backend, async ({ store }) => {
        await saveScenario(store, ORG, 's1');
        const record = evaluationRecord('ev_1', ORG, ['s1'], { expiresAt: T0 + 1_000 });
        await store.evaluations.create(record);
        assert.equal(await store.evaluations.delete('ev_1'), true);
        await store.evaluations.commit({ record: advance(record, 'processing') });
        await store.evaluations.commit({
          record: advance(record, 'complete', [0]),
          results: [resultWrite('ev_1', 0, contribution(10), iso(1_000))],
        });
        assert.equal(await store.evaluations.get('ev_1'), undefined);
        assert.equal(await store.evaluations.view('ev_1'), undefined);
        assert.deepEqual(await store.evaluations.listOpen(), []);
        assert.equal(await store.evaluations.scenarioResults('ev_1', 0), undefined);
        assert.equal(await store.results.latestJson(ORG, 's1'), undefined);
      }));

    it("deletes an evaluation once, keeping a scenario's latest results that are still its latest", () =>
      withBackend(backend, async ({ store }) => {
        await saveScenario(store, ORG, 's1');
        await saveScenario(store, ORG, 's2');
        const first = evaluationRecord('ev_1', ORG, ['s1', 's2']);
        const second = evaluationRecord('ev_2', ORG, ['s2']);
        await store.evaluations.create(first);
        await store.evaluations.create(second);
        await store.evaluations.commit({
          record: advance(first, 'complete', [0, 1]),
          results: [
            resultWrite('ev_1', 0, contribution(30), iso(1_000)),
            resultWrite('ev_1', 1, contribution(40), iso(1_000)),
          ],
        });
        await store.evaluations.commit({
          record: advance(second, 'complete', [0]),
          results: [resultWrite('ev_2', 0, contribution(50), iso(2_000))],
        });
        const rollup = await store.results.rollup(ORG);

        assert.equal(await store.evaluations.delete('ev_1'), true);
        assert.equal(await store.evaluations.get('ev_1'), undefined);
        assert.equal(await store.evaluations.view('ev_1'), undefined);
        assert.equal(
          copied(await store.results.latestJson(ORG, 's1'))?.toString('utf8'),
          resultsJson('ev_1', 0, 30),
          "still s1's latest",
        );
        assert.equal(copied(await store.results.latestJson(ORG, 's2'))?.toString('utf8'), resultsJson('ev_2', 0, 50));
        assert.deepEqual(await store.results.rollup(ORG), rollup, 'deleting an evaluation changes no rollup');
        assert.equal(await store.evaluations.delete('ev_1'), false);
        assert.equal(await store.evaluations.delete('ev_unknown'), false);

        const open = evaluationRecord('ev_3', ORG, ['s1'], { expiresAt: T0 + 1_000 });
        await store.evaluations.create(open);
        assert.equal(await store.evaluations.delete('ev_3'), true);
        assert.deepEqual(await store.evaluations.listOpen(), []);
        assert.equal(
          await store.evaluations.purgeExpired(T0 + 2_000, () => false),
          0,
          'a deleted evaluation leaves nothing to purge',
        );
      }));

    it("retires terminal stored evaluations completed before the cutoff; open, recent and ephemeral ones and each scenario's latest results stay", () =>
      withBackend(backend, async ({ store }) => {
        for (const id of ['s1', 's2', 's3']) await saveScenario(store, ORG, id);
        const cutoff = T0 + 5_000;
        const old1 = evaluationRecord('ev_old1', ORG, ['s1', 's2']);
        const old2 = evaluationRecord('ev_old2', ORG, ['s2']);
        const failed = evaluationRecord('ev_failed', ORG, ['s3']);
        const open = evaluationRecord('ev_open', ORG, ['s1']);
        const recent = evaluationRecord('ev_recent', ORG, ['s3']);
        const ephemeral = evaluationRecord('ev_eph', ORG, ['blueprint-0'], { expiresAt: T0 + 86_400_000 });
        for (const r of [old1, old2, failed, open, recent, ephemeral]) await store.evaluations.create(r);
        await store.evaluations.commit({
          record: advance(old1, 'complete', [0, 1], 1_000),
          results: [
            resultWrite('ev_old1', 0, contribution(30, { 'SEC-1': 2 }, ['SOC 2 CC6.1']), iso(1_000)),
            resultWrite('ev_old1', 1, contribution(40), iso(1_000)),
          ],
        });
        await store.evaluations.commit({
          record: advance(old2, 'complete', [0], 2_000),
          results: [resultWrite('ev_old2', 0, contribution(50, { 'OPS-1': 1 }), iso(2_000))],
        });
        await store.evaluations.commit({ record: advance(failed, 'error', [], 1_500) });
        await store.evaluations.commit({ record: advance(open, 'processing', [], 1_000) });
        await store.evaluations.commit({
          record: advance(recent, 'complete', [0], 10_000),
          results: [resultWrite('ev_recent', 0, contribution(90), iso(10_000), { 'OPS-2': null })],
        });
        await store.evaluations.commit({ record: advance(ephemeral, 'complete', [0], 1_000) });
        const rollup = await store.results.rollup(ORG);

        assert.equal(await store.evaluations.purgeRetired(cutoff, () => false, 100), 3);
        for (const id of ['ev_old1', 'ev_old2', 'ev_failed']) {
          assert.equal(await store.evaluations.get(id), undefined, id);
          assert.equal(await store.evaluations.view(id), undefined, id);
        }
        assert.equal(await store.evaluations.scenarioResults('ev_old1', 1), undefined, "s2's replaced results go");
        for (const id of ['ev_open', 'ev_recent', 'ev_eph']) assert.ok(await store.evaluations.get(id), id);
        assert.deepEqual(
          (await store.evaluations.listOpen()).map((r) => r.evaluation_id),
          ['ev_open'],
        );
        assert.equal(
          copied(await store.results.latestJson(ORG, 's1'))?.toString('utf8'),
          resultsJson('ev_old1', 0, 30),
        );
        assert.deepEqual(await store.results.remediation(ORG, 's1'), { 'SEC-1': '{"steps":["rotate"]}' });
        assert.equal(
          copied(await store.results.latestJson(ORG, 's2'))?.toString('utf8'),
          resultsJson('ev_old2', 0, 50),
        );
        assert.equal(
          copied(await store.results.latestJson(ORG, 's3'))?.toString('utf8'),
          resultsJson('ev_recent', 0, 90),
        );
        const after = await store.results.rollup(ORG);
        assert.deepEqual(after, rollup, 'retention changes no rollup');
        assert.ok(after);
        assert.deepEqual(withoutTime(after), withoutTime(await store.results.computeRollup(ORG, iso())));
        assert.equal(await store.evaluations.purgeRetired(cutoff, () => false, 100), 0, 'nothing left to retire');

        // Kept results go once nothing points at them: s1 evaluated again, s2 deleted.
        const next = evaluationRecord('ev_next', ORG, ['s1']);
        await store.evaluations.create(next);
        await store.evaluations.commit({
          record: advance(next, 'complete', [0], 20_000),
          results: [resultWrite('ev_next', 0, contribution(70), iso(20_000))],
        });
        assert.equal(
          copied(await store.results.latestJson(ORG, 's1'))?.toString('utf8'),
          resultsJson('ev_next', 0, 70),
        );
        assert.equal(await store.evaluations.scenarioResults('ev_old1', 0), undefined);
        assert.equal(await store.scenarios.delete(ORG, 's2', iso(20_000)), true);
        assert.equal(await store.evaluations.scenarioResults('ev_old2', 0), undefined);
        const rebuilt = await store.results.rollup(ORG);
        assert.ok(rebuilt);
        assert.deepEqual(withoutTime(rebuilt), withoutTime(await store.results.computeRollup(ORG, iso())));
        assert.equal(
          await store.evaluations.purgeRetired(T0 + 15_000, () => false, 100),
          1,
          'the recent one retires in its turn, the open one never',
        );
        assert.equal(await store.evaluations.get('ev_recent'), undefined);
        assert.equal(await store.evaluations.purgeRetired(T0 + 86_400_000 * 365, () => false, 100), 1);
        assert.ok(await store.evaluations.get('ev_open'));
        assert.ok(await store.evaluations.get('ev_eph'), 'ephemeral ones are left to the expiry purge');
      }));

    it('retires oldest first, at most `limit` per call, skipping busy ones; the cutoff itself is not before it', () =>
      withBackend(backend, async ({ store }) => {
        const long = `ev_${'r'.repeat(70)}`;
        const ids = ['ev_1', 'ev_2', long, 'ev_4', 'ev_5', 'ev_6'];
        for (const [i, id] of ids.entries()) {
          const record = evaluationRecord(id, ORG, ['s1']);
          await store.evaluations.create(record);
          await store.evaluations.commit({
            record: advance(record, i % 2 === 0 ? 'complete' : 'error', [], (i + 1) * 1_000),
          });
        }
        const cutoff = T0 + 6_000; // ev_6 completed at the cutoff: not before it
        const busy = new Set(['ev_2']);
        const isBusy = (id: string) => busy.has(id);
        assert.equal(await store.evaluations.purgeRetired(cutoff, isBusy, 2), 2);
        const left = async () => {
          const present: string[] = [];
          for (const id of ids) if (await store.evaluations.get(id)) present.push(id);
          return present;
        };
        assert.deepEqual(await left(), ['ev_2', 'ev_4', 'ev_5', 'ev_6'], 'the two oldest not busy');
        assert.equal(await store.evaluations.purgeRetired(cutoff, isBusy, 2), 2);
        assert.deepEqual(await left(), ['ev_2', 'ev_6']);
        assert.equal(await store.evaluations.purgeRetired(cutoff, isBusy, 2), 0, 'only the busy one is left');
        busy.clear();
        assert.equal(await store.evaluations.purgeRetired(cutoff, isBusy, 2), 1);
        assert.deepEqual(await left(), ['ev_6']);
        assert.equal(await store.evaluations.purgeRetired(cutoff + 1, isBusy, 2), 1);
        assert.deepEqual(await left(), []);
      }));

    it('retires each evaluation once under concurrent purges, keeps the index across a reopen, and forgets deleted ones', () =>
      withBackend(backend, async (opened) => {
        const ids = Array.from({ length: 12 }, (_, i) => `ev_${i}`);
        for (const id of ids) {
          const record = evaluationRecord(id, ORG, ['s1']);
          await opened.store.evaluations.create(record);
          await opened.store.evaluations.commit({ record: advance(record, 'complete', [], 1_000) });
        }
        await opened.store.flushed();
        const store = await opened.reopen();
        assert.equal(await store.evaluations.delete('ev_0'), true);
        const counts = await Promise.all(
          [5, 5, 100].map((limit) => store.evaluations.purgeRetired(T0 + 2_000, () => false, limit)),
        );
        assert.equal(
          counts.reduce((a, b) => a + b, 0),
          11,
          `each deleted and counted once (${counts.join(', ')})`,
        );
        for (const id of ids) assert.equal(await store.evaluations.get(id), undefined, id);
        assert.equal(await store.evaluations.purgeRetired(T0 + 2_000, () => false, 100), 0);
      }));

    it('redeems a result token exactly once among 50 concurrent attempts, durably', () =>
      withBackend(backend, async (opened) => {
        const evaluations = opened.store.evaluations;
        assert.equal(await evaluations.isTokenConsumed('jti-1'), false);
        const wins = await Promise.all(
          Array.from({ length: 50 }, (_, i) => evaluations.consumeToken('jti-1', 'ev_1', T0 + i)),
        );
        assert.equal(wins.filter(Boolean).length, 1);
        assert.equal(await evaluations.isTokenConsumed('jti-1'), true);
        assert.equal(await evaluations.isTokenConsumed('jti-2'), false);
        assert.equal(await evaluations.consumeToken('jti-2', 'ev_1', T0), true);
        const store = await opened.reopen();
        assert.equal(await store.evaluations.isTokenConsumed('jti-1'), true);
        assert.equal(await store.evaluations.isTokenConsumed('jti-2'), true);
        assert.equal(await store.evaluations.consumeToken('jti-1', 'ev_1', T0), false);
      }));
  });
}
