/**
 * The one-time migrations of data written by earlier versions (store/lmdb/migrate): a scenario's
 * latest results kept in the legacy `result-views` table, and remediation stored as a plain map
 * (before 2026-11-22), are read through the repositories after the upgrade, and the legacy table is
 * emptied; terminal evaluations stored before the completion index (2026-11-26) are indexed, so
 * retention reaches them; rollups kept without badge counts (before issue 18) are rebuilt.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { LmdbStore } from '../../../src/store/lmdb/store.js';
import { k } from '../../../src/store/lmdb/tables.js';
import type { EvaluationRecord } from '../../../src/model/records.js';
import { advance, contribution, evaluationRecord, iso, resultWrite, saveScenario } from '../contract/fixtures.js';

const ORG = 'org_1';
const LEGACY_JSON = '{"scenario_id":"old","evaluation_status":"evaluated","score":55}';

it('moves legacy result views and packs legacy remediation maps, once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gov-migrate-'));
  try {
    const legacy = open({ path: join(dir, 'gov.mdb'), maxDbs: 64 });
    const views = legacy.openDB<Buffer, string>({ name: 'result-views', encoding: 'binary' });
    const results = legacy.openDB<unknown, string>({ name: 'results' });
    const scenarios = legacy.openDB<unknown, string>({ name: 'scenarios' });
    await scenarios.put(k(ORG, 'old'), {
      org_id: ORG,
      scenario_id: 'old',
      name: 'Old',
      version: 1,
      imported_at: 'then',
      module_count: 1,
    });
    await views.put(k(ORG, 'old'), Buffer.from(LEGACY_JSON));
    await results.put(k(ORG, 'old'), {
      evaluation_id: 'ev_old',
      evaluated_at: '2026-11-01T00:00:00.000Z',
      version: 1,
      remediation: { 'SEC-1': '{"policy":"SEC-1"}', 'DI-1': null },
      contribution: { score: 55, violations: 2, critical: 0, policies: { 'SEC-1': 1, 'DI-1': 1 }, gaps: [] },
    });
    await legacy.close();

    let store = new LmdbStore(dir);
    assert.equal(Buffer.from(store.results.latestJson(ORG, 'old')!).toString(), LEGACY_JSON);
    assert.deepEqual(store.results.remediation(ORG, 'old'), { 'SEC-1': '{"policy":"SEC-1"}', 'DI-1': null });
    assert.equal(
      [...store.tables.root.openDB({ name: 'result-views', encoding: 'binary' }).getKeys()].length,
      0,
      'the legacy table is emptied',
    );
    await store.close();

    store = new LmdbStore(dir); // a second open runs nothing again and reads the same
    assert.equal(Buffer.from(store.results.latestJson(ORG, 'old')!).toString(), LEGACY_JSON);
    assert.equal(await store.scenarios.delete(ORG, 'old', '2026-11-23T00:00:00.000Z'), true);
    assert.equal(store.results.latestJson(ORG, 'old'), undefined);
    assert.equal(
      store.tables.evaluationResults.get(`legacy\u0000${k(ORG, 'old')}`),
      undefined,
      'deleting the scenario removes the moved view too',
    );
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('indexes terminal stored evaluations kept before the completion index, once, so retention reaches them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gov-migrate-'));
  const at = (day: number) => new Date(Date.UTC(2026, 9, day)).toISOString();
  const record = (id: string, changes: Partial<EvaluationRecord>): EvaluationRecord => ({
    evaluation_id: id,
    org_id: ORG,
    kind: 'stored',
    status: 'complete',
    scenario_ids: [],
    versions: [],
    total_scenarios: 0,
    completed: 0,
    scenarios: [],
    error: null,
    created_at: at(1),
    updated_at: at(1),
    completed_at: at(1),
    expires_at: null,
    key_id: 'key_1',
    ...changes,
  });
  try {
    const legacy = open({ path: join(dir, 'gov.mdb'), maxDbs: 64 });
    const evaluations = legacy.openDB<EvaluationRecord, string>({ name: 'evaluations' });
    await evaluations.put('ev_done', record('ev_done', {}));
    await evaluations.put('ev_failed', record('ev_failed', { status: 'error', completed_at: null, updated_at: at(2) }));
    await evaluations.put('ev_late', record('ev_late', { completed_at: at(20), updated_at: at(20) }));
    await evaluations.put('ev_open', record('ev_open', { status: 'processing', completed_at: null }));
    await evaluations.put('ev_eph', record('ev_eph', { kind: 'ephemeral', expires_at: Date.UTC(2026, 9, 1, 1) }));
    await legacy.close();

    let store = new LmdbStore(dir);
    assert.equal(
      await store.evaluations.purgeRetired(Date.UTC(2026, 9, 10), () => false, 100),
      2,
      'the complete one by completed_at, the failed one without completed_at by updated_at',
    );
    assert.equal(store.evaluations.get('ev_done'), undefined);
    assert.equal(store.evaluations.get('ev_failed'), undefined);
    for (const id of ['ev_late', 'ev_open', 'ev_eph']) assert.ok(store.evaluations.get(id), id);
    await store.close();

    store = new LmdbStore(dir); // the index is kept across opens
    assert.equal(await store.evaluations.purgeRetired(Date.UTC(2026, 9, 10), () => false, 100), 0);
    assert.equal(await store.evaluations.purgeRetired(Date.UTC(2026, 10, 1), () => false, 100), 1);
    assert.equal(store.evaluations.get('ev_late'), undefined);
    assert.ok(store.evaluations.get('ev_open'));
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('rebuilds every rollup once, so its badge counts cover the results kept before them (issue 31, item 8)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gov-migrate-'));
  const name = 'migration:2026-11-28-rollup-badges';
  try {
    let store = new LmdbStore(dir);
    for (const id of ['a', 'b', 'c', 'd']) await saveScenario(store, ORG, id);
    const record = evaluationRecord('ev_1', ORG, ['a', 'b', 'c']);
    await store.evaluations.create(record);
    // Contributions as results stored before issue 18 hold them (no `badge`, no `severities`).
    const written = [contribution(100), contribution(70, { 'SEC-1': 1 }), contribution(90, { 'OPS-1': 2 })];
    await store.evaluations.commit({
      record: advance(record, 'complete', [0, 1, 2]),
      results: written.map((c, i) => resultWrite('ev_1', i, c, iso(1_000))),
    });
    const expected = { clean: 1, critical: 1, unknown: 1 };
    assert.deepEqual(store.results.rollup(ORG)?.badges, expected, 'the commit counts them');
    // What an upgrade finds: a rollup kept without badge counts, the migration not yet run.
    const kept = { ...store.results.rollup(ORG)!, badges: {}, updated_at: iso(5_000) };
    await store.tables.rollups.put(ORG, kept);
    await store.tables.meta.remove(name);
    await store.close();

    store = new LmdbStore(dir);
    assert.deepEqual(store.results.rollup(ORG), { ...kept, badges: expected }, 'rebuilt; updated_at kept');
    await store.tables.rollups.put(ORG, kept);
    await store.close();

    store = new LmdbStore(dir); // once: a later open leaves the rollup as it finds it
    assert.deepEqual(store.results.rollup(ORG), kept);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
