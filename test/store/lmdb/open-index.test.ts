/** The LMDB open index keeps each open evaluation's status, so `countOpen` reads no record; entries of an earlier release (`created_at`) still count. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LmdbTables } from '../../../src/store/lmdb/tables.js';
import { LmdbEvaluations } from '../../../src/store/evaluations/lmdb.js';
import { advance, evaluationRecord, ORG } from '../contract/fixtures.js';

it('keeps the status in the open index through a transition, and counts entries written before by their record', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gov-open-index-'));
  const t = new LmdbTables(dir);
  try {
    const evaluations = new LmdbEvaluations(t, () => new Date().toISOString());
    const a = evaluationRecord('ev_a', ORG, ['s1']);
    const b = evaluationRecord('ev_b', ORG, ['s1']);
    await evaluations.create(a);
    await evaluations.create(b);
    assert.equal(t.openEvaluations.get('ev_a'), 'pending');
    await evaluations.commit({ record: advance(a, 'processing') });
    assert.equal(t.openEvaluations.get('ev_a'), 'processing');
    assert.deepEqual(evaluations.countOpen(), { pending: 1, processing: 1 });

    // An earlier release's entries hold `created_at`: their records decide.
    await t.openEvaluations.put('ev_a', a.created_at);
    await t.openEvaluations.put('ev_b', b.created_at);
    assert.deepEqual(evaluations.countOpen(), { pending: 1, processing: 1 });
    // A status in the index is counted without reading the record (here it disagrees with ev_b's record on purpose).
    await t.openEvaluations.put('ev_b', 'processing');
    assert.deepEqual(evaluations.countOpen(), { pending: 0, processing: 2 });
    // A commit of a legacy entry's evaluation writes its status.
    await evaluations.commit({ record: advance(a, 'processing', [], 2_000) });
    assert.equal(t.openEvaluations.get('ev_a'), 'processing');
    await evaluations.commit({ record: advance(a, 'complete', [0], 3_000) });
    assert.equal(t.openEvaluations.get('ev_a'), undefined);
    assert.deepEqual(evaluations.countOpen(), { pending: 0, processing: 1 });
  } finally {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
