/** bench/lib/baseline: a run's rows compared with the newest previous run of the same mode (issue 30, item 2). */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { comparisonReport, readPreviousRuns } from '../../bench/lib/baseline.js';
import type { ResultRow } from '../../bench/lib/compare.js';

const tmp = mkdtempSync(join(tmpdir(), 'gov-bench-baseline-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const SOAK = { scenario: '5 Soak', target: 'RSS growth after warm-up < 10% (anonymous memory)' };
const ZERO = { scenario: '5 Soak', target: 'zero 5xx' };
const row = (r: { scenario: string; target: string }, measured: string): ResultRow => ({ ...r, measured });

/** A results file as bench/run writes it (other fields of the scenario's results beside). */
function result(dir: string, file: string, at: string, quick: boolean, rows: ResultRow[]): void {
  writeFileSync(
    join(dir, file),
    JSON.stringify({ name: 'soak', at, machine: 'm', quick, tableRows: rows, rows: [{ other: 1 }], seconds: 6 }),
  );
}

const PERFORMANCE = `# Performance

Latest full run of \`npm run bench\` (2026-11-26T22:30:40.562Z), on 2 × AMD EPYC, full run.

| scenario | target | measured | met | detail |
|---|---|---|---|---|
| 5 Soak | RSS growth after warm-up < 10% (anonymous memory) | 0.1% | yes | 600 s |
| 5 Soak | zero 5xx | 0 | yes | statuses |
`;

describe('bench baseline', () => {
  it('compares a quick run with the newest previous quick run, never with a full run', () => {
    const dir = join(tmp, 'mixed');
    mkdirSync(dir);
    result(dir, '2026-11-20-soak-quick.json', '2026-11-20T10:00:00.000Z', true, [row(SOAK, '4.0%'), row(ZERO, '0')]);
    result(dir, '2026-11-27-soak-quick.json', '2026-11-27T10:00:00.000Z', true, [row(SOAK, '5.0%')]);
    result(dir, '2026-11-28-soak.json', '2026-11-28T10:00:00.000Z', false, [row(SOAK, '0.1%'), row(ZERO, '0')]);
    const runs = readPreviousRuns(dir, PERFORMANCE, 'bench/results');
    assert.deepEqual(comparisonReport([row(SOAK, '5.9%'), row(ZERO, '0')], runs, true), [
      'Change against the newest previous quick run of each row (bench/results/2026-11-27-soak-quick.json (2026-11-27T10:00:00.000Z), bench/results/2026-11-20-soak-quick.json (2026-11-20T10:00:00.000Z)):',
      '  5 Soak: RSS growth after warm-up < 10% (anonymous memory): was 5.0% → now 5.9% (+18%)',
      '  5 Soak: zero 5xx: was 0 → now 0',
    ]);
  });

  it('compares a full run with the newest previous full run: a results file, or the committed docs/performance.md', () => {
    const dir = join(tmp, 'full');
    mkdirSync(dir);
    result(dir, '2026-11-27-soak-quick.json', '2026-11-29T10:00:00.000Z', true, [row(SOAK, '5.0%')]);
    result(dir, '2026-11-25-soak.json', '2026-11-25T10:00:00.000Z', false, [row(SOAK, '9.9%')]);
    const runs = readPreviousRuns(dir, PERFORMANCE, 'bench/results');
    assert.deepEqual(comparisonReport([row(SOAK, '0.2%')], runs, false), [
      'Change against the newest previous full run of each row (docs/performance.md (2026-11-26T22:30:40.562Z)):',
      '  5 Soak: RSS growth after warm-up < 10% (anonymous memory): was 0.1% → now 0.2% (+100%)',
    ]);
  });

  it('says there is no previous run of the mode when none is on record', () => {
    const dir = join(tmp, 'only-full');
    mkdirSync(dir);
    result(dir, '2026-11-28-soak.json', '2026-11-28T10:00:00.000Z', false, [row(SOAK, '0.1%')]);
    const runs = readPreviousRuns(dir, PERFORMANCE);
    assert.deepEqual(comparisonReport([row(SOAK, '5.9%')], runs, true), [
      'No previous quick run to compare with (a quick run is compared only with quick runs).',
    ]);
    assert.deepEqual(comparisonReport([row(SOAK, '0.1%')], readPreviousRuns(join(tmp, 'absent'), null), false), [
      'No previous full run to compare with (a full run is compared only with full runs).',
    ]);
  });

  it('marks a row that no previous run of the mode measured, and names only the runs compared with', () => {
    const dir = join(tmp, 'partial');
    mkdirSync(dir);
    result(dir, '2026-11-27-soak-quick.json', '2026-11-27T10:00:00.000Z', true, [row(SOAK, '5.0%')]);
    const other = { scenario: 'Engine (issue 3)', target: 'median eval ÷ JSON.parse ≤ 3' };
    result(dir, '2026-11-28-engine-quick.json', '2026-11-28T10:00:00.000Z', true, [row(other, '1.40')]);
    const runs = readPreviousRuns(dir, null, 'r');
    assert.deepEqual(comparisonReport([row(SOAK, '5.0%'), row(ZERO, '0')], runs, true), [
      'Change against the newest previous quick run of each row (r/2026-11-27-soak-quick.json (2026-11-27T10:00:00.000Z)):',
      '  5 Soak: RSS growth after warm-up < 10% (anonymous memory): was 5.0% → now 5.0% (+0%)',
      '  5 Soak: zero 5xx: now 0 (no previous quick run)',
    ]);
    assert.deepEqual(comparisonReport([row(ZERO, '0')], runs, true), [
      'No previous quick run to compare with (a quick run is compared only with quick runs).',
    ]);
  });

  it('passes over unreadable files and files written before results carried their rows', () => {
    const dir = join(tmp, 'junk');
    mkdirSync(dir);
    writeFileSync(join(dir, 'broken.json'), '{ not json');
    writeFileSync(join(dir, 'old.json'), JSON.stringify({ name: 'soak', at: '2026-11-20T00:00:00Z', quick: true }));
    writeFileSync(join(dir, 'notes.txt'), 'x');
    assert.deepEqual(readPreviousRuns(dir, null), []);
  });
});
