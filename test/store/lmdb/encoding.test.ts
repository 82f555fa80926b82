/** The store's msgpack encoding: shared record structures, maps keyed by data, and values written before either. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { isRecordShaped, LmdbTables } from '../../../src/store/lmdb/tables.js';
import type { ResultRecord, RollupRecord } from '../../../src/model/records.js';

const rollup = (i: number): RollupRecord => ({
  org_id: `org-${i}`,
  scenarios_total: i,
  scenarios_evaluated: i,
  score_sum: 10 * i,
  violations_total: i,
  critical_total: 0,
  // A different key set per value: as records, each would need a structure of its own.
  policies: { [`SEC-${i}`]: { count: i, scenarios: 1 }, [`OPS-${i % 7}`]: { count: 1, scenarios: 1 } },
  gaps: { [`SOC 2 CC${i}.1`]: 1 },
  waived_total: i,
  waived: i % 2 === 0 ? {} : { [`DI-${i}`]: 1 },
  updated_at: '2026-11-22T00:00:00.000Z',
});

it('tells fixed-shape records from maps keyed by policy codes or gap labels', () => {
  assert.equal(isRecordShaped({ org_id: 'o', policies: {} }), true);
  assert.equal(isRecordShaped({ 'SEC-1': 2, 'DI-1': 1 }), false);
  assert.equal(isRecordShaped({ 'SOC 2 CC6.1': 1 }), false);
  assert.equal(isRecordShaped({}), true);
});

it('round-trips rollups and results whose maps have many key sets, as plain objects', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gov-encoding-'));
  try {
    let store = new LmdbTables(dir);
    for (let i = 0; i < 200; i++) await store.rollups.put(`org-${i}`, rollup(i));
    const result: ResultRecord = {
      evaluation_id: 'e',
      evaluated_at: 'now',
      version: 1,
      remediation: new Uint8Array([1, 2, 3]),
      contribution: { score: 50, violations: 2, critical: 1, policies: { 'SEC-1': 2 }, gaps: ['GDPR Art. 32'] },
    };
    await store.results.put('r', result);
    await store.close();
    store = new LmdbTables(dir); // structures reloaded from the database
    for (let i = 0; i < 200; i++) assert.deepStrictEqual(store.rollups.get(`org-${i}`), rollup(i));
    const read = store.results.get('r')!;
    assert.deepStrictEqual({ ...read, remediation: [...read.remediation] }, { ...result, remediation: [1, 2, 3] });
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('still reads values written before structures were shared (inline structures)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gov-encoding-'));
  try {
    const legacy = open({ path: join(dir, 'gov.mdb'), maxDbs: 64 });
    const rollups = legacy.openDB<RollupRecord, string>({ name: 'rollups' });
    const orgs = legacy.openDB<{ org_id: string; name: string }, string>({ name: 'orgs' });
    for (let i = 0; i < 50; i++) await rollups.put(`org-${i}`, rollup(i));
    await orgs.put('org-1', { org_id: 'org-1', name: 'Legacy' });
    await legacy.close();
    const store = new LmdbTables(dir);
    await store.rollups.put('org-new', rollup(999)); // new values with shared structures beside the old ones
    for (let i = 0; i < 50; i++) assert.deepStrictEqual(store.rollups.get(`org-${i}`), rollup(i));
    assert.deepStrictEqual(store.rollups.get('org-new'), rollup(999));
    assert.deepStrictEqual(store.orgs.get('org-1'), { org_id: 'org-1', name: 'Legacy' });
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
