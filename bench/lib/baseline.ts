/**
 * @module bench/lib/baseline: which previous run a run's figures are compared with (issue 30, item 2).
 * A quick run is compared only with quick runs and a full run only with full runs: a quick soak of
 * 6 s against a full 10-minute soak read "+5767%", a difference of method, not of the code. Each
 * row is compared with the newest previous run of the same mode that measured it: the results files
 * in bench/results/ (each carries its mode, time and table rows, `tableRows`) and, for a full run, the committed table
 * of docs/performance.md (the last full run of all scenarios, written by bench/run).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareRows, parseResultRows, rowKey, type ResultRow } from './compare.js';

/** The rows of one previous run (or of one scenario of it), from a results file or docs/performance.md. */
export interface PreviousRun {
  /** When it ran, ISO 8601 (empty when unknown: older than any dated run). */
  readonly at: string;
  /** True for a `--quick` run. */
  readonly quick: boolean;
  /** Where it was read from, for the report (`bench/results/2026-11-28-engine-quick.json`). */
  readonly source: string;
  readonly rows: readonly ResultRow[];
}

/** The timestamp in the header that bench/run writes into docs/performance.md. */
const PERFORMANCE_AT = /^Latest full run of `npm run bench` \(([^)]+)\)/m;

function isRow(x: unknown): x is ResultRow {
  const r = x as Partial<Record<keyof ResultRow, unknown>> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.scenario === 'string' &&
    typeof r.target === 'string' &&
    typeof r.measured === 'string'
  );
}

/**
 * The previous runs on record: every `*.json` of `resultsDir` with `at`, `quick` and `tableRows` (files
 * written before results carried their rows, unreadable or foreign files are passed over), and
 * `performanceMd`'s table as a full run when given.
 * @param resultsDir bench/results (a missing folder holds no runs)
 * @param performanceMd the text of docs/performance.md, or null
 * @param label how `resultsDir` is named in `source` (default `bench/results`)
 */
export function readPreviousRuns(
  resultsDir: string,
  performanceMd: string | null,
  label = 'bench/results',
): PreviousRun[] {
  const runs: PreviousRun[] = [];
  let files: string[] = [];
  try {
    files = readdirSync(resultsDir).filter((f) => f.endsWith('.json'));
  } catch {
    // No results yet (a fresh clone): nothing to compare with.
  }
  for (const file of files) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(join(resultsDir, file), 'utf8'));
    } catch {
      continue;
    }
    const d = data as { at?: unknown; quick?: unknown; tableRows?: unknown } | null;
    if (typeof d?.at !== 'string' || typeof d.quick !== 'boolean' || !Array.isArray(d.tableRows)) continue;
    runs.push({ at: d.at, quick: d.quick, source: `${label}/${file}`, rows: d.tableRows.filter(isRow) });
  }
  if (performanceMd !== null) {
    const rows = parseResultRows(performanceMd);
    if (rows.length > 0)
      runs.push({
        at: PERFORMANCE_AT.exec(performanceMd)?.[1] ?? '',
        quick: false,
        source: 'docs/performance.md',
        rows,
      });
  }
  return runs;
}

function time(at: string): number {
  const t = Date.parse(at);
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

/**
 * For each row of `current`, the same row (scenario and target) of the newest run of mode `quick`
 * that has it, and the runs those rows came from, newest first.
 */
export function newestRows(
  current: readonly ResultRow[],
  runs: readonly PreviousRun[],
  quick: boolean,
): { rows: ResultRow[]; used: PreviousRun[] } {
  const wanted = new Set(current.map(rowKey));
  const byKey = new Map<string, { row: ResultRow; run: PreviousRun }>();
  for (const run of runs) {
    if (run.quick !== quick) continue;
    for (const row of run.rows) {
      if (!wanted.has(rowKey(row))) continue;
      const have = byKey.get(rowKey(row));
      if (!have || time(run.at) > time(have.run.at)) byKey.set(rowKey(row), { row, run });
    }
  }
  const used = [...new Set([...byKey.values()].map((v) => v.run))].sort((a, b) => time(b.at) - time(a.at));
  return { rows: [...byKey.values()].map((v) => v.row), used };
}

/**
 * The comparison block a run prints at its end: a heading naming the mode and the runs compared
 * with, then one line per row of `current` (bench/lib/compare); or one line saying that there is no
 * previous run of this mode (none on record, or none that measured any of these rows).
 */
export function comparisonReport(
  current: readonly ResultRow[],
  runs: readonly PreviousRun[],
  quick: boolean,
): string[] {
  const mode = quick ? 'quick' : 'full';
  const { rows, used } = newestRows(current, runs, quick);
  if (used.length === 0)
    return [`No previous ${mode} run to compare with (a ${mode} run is compared only with ${mode} runs).`];
  const from = used.map((r) => `${r.source}${r.at === '' ? '' : ` (${r.at})`}`).join(', ');
  return [
    `Change against the newest previous ${mode} run of each row (${from}):`,
    ...compareRows(current, rows, `no previous ${mode} run`).map((l) => `  ${l}`),
  ];
}
