/**
 * The one-time migration of data written before 2026-11-22 (store/lmdb/migrate): a scenario's
 * latest results kept in the legacy `result-views` table, and remediation stored as a plain map,
 * are read through the repositories after the upgrade, and the legacy table is emptied.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { LmdbStore } from '../../../src/store/lmdb/store.js';
import { k } from '../../../src/store/lmdb/tables.js';

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
