/** The LMDB evaluation repository's write batcher: writes of one turn share a transaction; rollup changes fold per organization; a failing write is rolled back alone. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LmdbTables } from '../../../src/store/lmdb/tables.js';
import { WriteBatcher } from '../../../src/store/lmdb/write-batcher.js';
import { applyContribution, emptyRollup } from '../../../src/store/rollup.js';
import type { RollupContribution } from '../../../src/model/records.js';

const NOW = '2026-11-22T00:00:00.000Z';

/** Runs `body` with a batcher over a real store in a temporary directory, removed afterwards. */
async function withBatcher(body: (store: LmdbTables, batcher: WriteBatcher) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gov-batcher-'));
  const store = new LmdbTables(dir);
  try {
    await body(store, new WriteBatcher(store, () => NOW));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const c = (score: number, policies: Record<string, number>, gaps: string[]): RollupContribution => ({
  score,
  violations: Object.keys(policies).length,
  critical: 0,
  policies,
  gaps,
});

it("commits the writes of one turn together and applies each organization's rollup changes once, in order", () =>
  withBatcher(async (store, batcher) => {
    const a1 = c(40, { 'SEC-1': 2 }, ['GDPR Art. 32']);
    const a2 = c(70, { 'DI-1': 1 }, []);
    const b1 = c(10, { 'SEC-1': 1, 'OPS-1': 3 }, ['SOC 2 CC7.2']);
    const first = batcher.add((sink) => {
      void store.meta.put('w1', 1);
      sink.rollup('org-a', [null, a1]);
      sink.rollup('org-b', [null, b1]);
    });
    const second = batcher.add((sink) => {
      void store.meta.put('w2', 2);
      sink.rollup('org-a', [a1, a2]);
    });
    assert.equal(store.meta.get('w1'), undefined, 'nothing is written before the turn ends');
    await Promise.all([first, second]);
    assert.equal(store.meta.get('w1'), 1);
    assert.equal(store.meta.get('w2'), 2);
    const expectedA = applyContribution(applyContribution(emptyRollup('org-a', NOW), null, a1, NOW), a1, a2, NOW);
    assert.deepEqual(store.rollups.get('org-a'), expectedA);
    assert.equal(store.rollups.get('org-b')!.policies['OPS-1']!.count, 3);
    const third = batcher.add(() => {
      void store.meta.put('w3', 3);
    });
    await third;
    assert.equal(store.meta.get('w3'), 3);
  }));

it('rolls back a write that throws, with its rollup changes, and rejects only its promise', () =>
  withBatcher(async (store, batcher) => {
    const a1 = c(40, { 'SEC-1': 2 }, []);
    const ok = batcher.add((sink) => {
      void store.meta.put('kept', 1);
      sink.rollup('org-a', [null, a1]);
      return 'kept';
    });
    const bad = batcher.add((sink) => {
      void store.meta.put('half', 2);
      sink.rollup('org-a', [null, c(10, { 'DI-1': 1 }, [])]);
      throw new Error('observer failed');
    });
    const after = batcher.add(() => {
      void store.meta.put('after', 3);
      return 3;
    });
    await assert.rejects(bad, /observer failed/);
    assert.equal(await ok, 'kept', 'each promise resolves with what its write returned');
    assert.equal(await after, 3);
    assert.equal(store.meta.get('kept'), 1);
    assert.equal(store.meta.get('after'), 3);
    assert.equal(store.meta.get('half'), undefined, 'the failed write left nothing behind');
    assert.deepEqual(Object.keys(store.rollups.get('org-a')!.policies), ['SEC-1'], 'nor its rollup change');
  }));
