/** The LMDB scenario history keeps exactly the newest HISTORY_LIMIT entries in the table (not only in what `history` reads), also when several land in one transaction. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LmdbTables } from '../../../src/store/lmdb/tables.js';
import { recordHistory } from '../../../src/store/fleet/lmdb.js';
import { HISTORY_LIMIT } from '../../../src/store/fleet/repository.js';
import type { HistoryEntry } from '../../../src/store/fleet/repository.js';

const entry = (i: number): HistoryEntry => ({
  evaluation_id: `ev_${String(i).padStart(3, '0')}`,
  evaluated_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  score: i,
  violations: { critical: 0, high: 0, medium: 0, low: i, info: 0 },
});

/** Every stored history key of `scenarioId` in org `o`, oldest first, as strings. */
function storedKeys(t: LmdbTables, scenarioId: string): string[] {
  return [
    ...t.scenarioHistory.getKeys({
      start: Buffer.from(`o\u0000${scenarioId}\u0000`),
      end: Buffer.from(`o\u0000${scenarioId}\u0001`),
    }),
  ].map((k) => Buffer.from(k as Uint8Array).toString('utf8'));
}

it('trims the table to the newest entries, one at a time and several per transaction, leaving other scenarios alone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gov-history-'));
  const t = new LmdbTables(dir);
  try {
    for (let i = 0; i < HISTORY_LIMIT + 3; i++) await t.root.transaction(() => recordHistory(t, 'o', 'a', entry(i)));
    await t.root.transaction(() => recordHistory(t, 'o', 'ab', entry(0)));
    // Seven more of `a` in one transaction: the table ends with the newest HISTORY_LIMIT of all 60.
    await t.root.transaction(() => {
      for (let i = HISTORY_LIMIT + 3; i < HISTORY_LIMIT + 10; i++) recordHistory(t, 'o', 'a', entry(i));
    });
    const keys = storedKeys(t, 'a');
    assert.equal(keys.length, HISTORY_LIMIT);
    assert.deepEqual(
      keys.map((k) => k.slice(k.lastIndexOf('\u0000') + 1)),
      Array.from({ length: HISTORY_LIMIT }, (_, i) => entry(i + 10).evaluation_id),
    );
    assert.equal(storedKeys(t, 'ab').length, 1);
  } finally {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
