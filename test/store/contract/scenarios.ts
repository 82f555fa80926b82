/** @module test/store/contract/scenarios: the contract of ScenariosRepository (versions, blueprint bytes as imported, listing, deletion, rollup count). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BackendUnderTest } from './backend.js';
import { withBackend } from './backend.js';
import {
  advance,
  AWKWARD_IDS,
  byCodePoint,
  contribution,
  copied,
  evaluationRecord,
  iso,
  ORG,
  ORG_LONG,
  ORG_PREFIXED,
  resultWrite,
  saveScenario,
} from './fixtures.js';

/** Blueprint texts that re-serialising would change: whitespace, escapes, non-ASCII, number forms, a BOM-less multi-line file. */
const BLUEPRINTS: readonly string[] = [
  '{"name":"v1","flow":[]}',
  '{\n\t"name" : "Zahlungseingang – Prüfung ✓",\r\n  "flow": [ ],  "x": 1.0, "y": 1e3 }\n\n',
  '  {"name":"\\u00e9 é 中 😀","flow":[{"id":1}]}  ',
];

/** Registers the scenarios suite for `backend`. */
export function scenariosContract(backend: BackendUnderTest): void {
  describe(`scenarios contract (${backend.name})`, () => {
    it("numbers versions 1, 2, 3 and returns every version's blueprint byte for byte as imported", () =>
      withBackend(backend, async ({ store }) => {
        for (const [i, json] of BLUEPRINTS.entries()) {
          const saved = await saveScenario(store, ORG, 's1', json, i * 1_000);
          assert.deepEqual(saved, {
            org_id: ORG,
            scenario_id: 's1',
            name: 'scenario s1',
            version: i + 1,
            imported_at: iso(i * 1_000),
            module_count: 2,
          });
        }
        assert.deepEqual(await store.scenarios.get(ORG, 's1'), {
          org_id: ORG,
          scenario_id: 's1',
          name: 'scenario s1',
          version: 3,
          imported_at: iso(2_000),
          module_count: 2,
        });
        for (const [i, json] of BLUEPRINTS.entries())
          assert.deepEqual(
            copied(await store.scenarios.blueprint(ORG, 's1', i + 1)),
            Buffer.from(json, 'utf8'),
            `version ${i + 1}`,
          );
        assert.equal(await store.scenarios.blueprint(ORG, 's1', 4), undefined);
        assert.equal(await store.scenarios.blueprint(ORG, 's1', 0), undefined);
        assert.equal(await store.scenarios.blueprint(ORG_PREFIXED, 's1', 1), undefined);
        assert.equal(await store.scenarios.get(ORG_PREFIXED, 's1'), undefined);
      }));

    it('hands out distinct versions to concurrent imports of one scenario', () =>
      withBackend(backend, async ({ store }) => {
        const jsons = Array.from({ length: 8 }, (_, i) => `{"n":${i}}`);
        const saved = await Promise.all(jsons.map((json) => saveScenario(store, ORG, 's1', json)));
        assert.deepEqual(
          saved.map((s) => s.version).sort((a, b) => a - b),
          [1, 2, 3, 4, 5, 6, 7, 8],
        );
        assert.equal((await store.scenarios.get(ORG, 's1'))?.version, 8);
        for (const [i, s] of saved.entries())
          assert.deepEqual(
            copied(await store.scenarios.blueprint(ORG, 's1', s.version)),
            Buffer.from(jsons[i]!, 'utf8'),
          );
      }));

    it("lists exactly an organization's scenarios by id, whatever the ids' lengths and characters", () =>
      withBackend(backend, async ({ store }) => {
        for (const id of AWKWARD_IDS) await saveScenario(store, ORG, id);
        for (const id of ['a', 'L'.repeat(70), 'other']) await saveScenario(store, ORG_PREFIXED, id);
        for (const id of ['a', 'é中😀']) await saveScenario(store, ORG_LONG, id);
        assert.deepEqual(
          (await store.scenarios.list(ORG)).map((s) => s.scenario_id),
          [...AWKWARD_IDS].sort(byCodePoint),
        );
        assert.ok((await store.scenarios.list(ORG)).every((s) => s.org_id === ORG));
        assert.deepEqual(
          (await store.scenarios.list(ORG_PREFIXED)).map((s) => s.scenario_id),
          ['L'.repeat(70), 'a', 'other'],
        );
        assert.deepEqual(
          (await store.scenarios.list(ORG_LONG)).map((s) => s.scenario_id),
          ['a', 'é中😀'],
        );
        assert.deepEqual(await store.scenarios.list('org_2'), []);
        for (const id of AWKWARD_IDS) assert.equal((await store.scenarios.get(ORG, id))?.scenario_id, id);
      }));

    it('deletes every version and the latest results, once; a new import starts again at version 1', () =>
      withBackend(backend, async ({ store }) => {
        for (const json of BLUEPRINTS) await saveScenario(store, ORG, 's1', json);
        await saveScenario(store, ORG, 's2');
        const record = evaluationRecord('ev_1', ORG, ['s1'], { versions: [3] });
        await store.evaluations.create(record);
        await store.evaluations.commit({
          record: advance(record, 'complete', [0]),
          results: [resultWrite('ev_1', 0, contribution(70, { 'SEC-1': 1 }), iso(1_000))],
        });
        assert.ok((await store.results.latestJson(ORG, 's1')) !== undefined);

        assert.equal(await store.scenarios.delete(ORG, 's1', iso(2_000)), true);
        assert.equal(await store.scenarios.get(ORG, 's1'), undefined);
        for (let v = 1; v <= 3; v++) assert.equal(await store.scenarios.blueprint(ORG, 's1', v), undefined);
        assert.equal(await store.results.latestJson(ORG, 's1'), undefined);
        assert.equal(await store.results.remediation(ORG, 's1'), undefined);
        assert.deepEqual(
          (await store.scenarios.list(ORG)).map((s) => s.scenario_id),
          ['s2'],
        );
        assert.equal(await store.scenarios.delete(ORG, 's1', iso(3_000)), false);
        assert.equal(await store.scenarios.delete(ORG_PREFIXED, 's2', iso(3_000)), false);
        assert.ok(await store.scenarios.get(ORG, 's2'));

        const again = await saveScenario(store, ORG, 's1', '{"again":true}');
        assert.equal(again.version, 1);
        assert.deepEqual(copied(await store.scenarios.blueprint(ORG, 's1', 1)), Buffer.from('{"again":true}'));
        assert.equal(await store.scenarios.blueprint(ORG, 's1', 2), undefined);
        assert.equal(await store.results.latestJson(ORG, 's1'), undefined, 'a re-imported scenario has no results yet');
      }));

    it("keeps the rollup's scenarios_total and contribution through imports and deletions", () =>
      withBackend(backend, async ({ store }) => {
        assert.equal(await store.results.rollup(ORG), undefined, 'nothing imported yet');
        await saveScenario(store, ORG, 'a');
        await saveScenario(store, ORG, 'a');
        await saveScenario(store, ORG, 'ab');
        await saveScenario(store, ORG, 'L'.repeat(70));
        await saveScenario(store, ORG_PREFIXED, 'a');
        assert.equal((await store.results.rollup(ORG))?.scenarios_total, 3);
        assert.equal((await store.results.rollup(ORG_PREFIXED))?.scenarios_total, 1);

        const record = evaluationRecord('ev_1', ORG, ['a', 'ab'], { versions: [2, 1] });
        await store.evaluations.create(record);
        await store.evaluations.commit({
          record: advance(record, 'complete', [0, 1]),
          results: [
            resultWrite('ev_1', 0, contribution(60, { 'SEC-1': 2 }, ['GDPR Art. 32']), iso(1_000)),
            resultWrite('ev_1', 1, contribution(90, { 'OPS-2': 1 }), iso(1_000)),
          ],
        });
        assert.equal(await store.scenarios.delete(ORG, 'a', iso(2_000)), true);
        assert.equal(await store.scenarios.delete(ORG, 'L'.repeat(70), iso(2_000)), true);
        const rollup = await store.results.rollup(ORG);
        assert.ok(rollup);
        assert.deepEqual(
          { ...rollup, updated_at: '' },
          {
            org_id: ORG,
            scenarios_total: 1,
            scenarios_evaluated: 1,
            score_sum: 90,
            violations_total: 1,
            critical_total: 0,
            policies: { 'OPS-2': { count: 1, scenarios: 1 } },
            gaps: {},
            waived_total: 0,
            waived: {},
            badges: { unknown: 1 }, // no badge in the fixture: one violation, none critical
            updated_at: '',
          },
        );
        assert.equal((await store.results.rollup(ORG_PREFIXED))?.scenarios_total, 1);
      }));

    it('keeps scenarios and blueprints across a reopen', () =>
      withBackend(backend, async (opened) => {
        await saveScenario(opened.store, ORG, 'L'.repeat(70), BLUEPRINTS[1]);
        const store = await opened.reopen();
        assert.equal((await store.scenarios.get(ORG, 'L'.repeat(70)))?.version, 1);
        assert.deepEqual(
          copied(await store.scenarios.blueprint(ORG, 'L'.repeat(70), 1)),
          Buffer.from(BLUEPRINTS[1]!, 'utf8'),
        );
        assert.equal((await store.scenarios.list(ORG)).length, 1);
      }));
  });
}
