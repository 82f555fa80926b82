/**
 * @module bench/run: `npm run bench [-- <name...>] [--quick]`. Runs the named benchmarks (default
 * all), prints a Markdown table and writes `bench/results/<date>-<name>.json`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchEngine } from './engine.js';

const RESULTS = fileURLToPath(new URL('../../bench/results/', import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const names = args.filter((a) => !a.startsWith('--'));
const selected = (name: string) => names.length === 0 || names.includes(name);

function save(name: string, data: unknown): void {
  mkdirSync(RESULTS, { recursive: true });
  const file = `${RESULTS}${new Date().toISOString().slice(0, 10)}-${name}.json`;
  writeFileSync(file, `${JSON.stringify({ name, at: new Date().toISOString(), node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model, memory_bytes: totalmem(), quick, ...data as object }, null, 2)}\n`);
  process.stdout.write(`wrote ${file}\n`);
}

if (selected('engine')) {
  const r = benchEngine(quick ? 70 : 350);
  process.stdout.write(`\n## Engine: evaluation time ÷ JSON.parse time, per corpus blueprint\n\n| target | measured | met |\n|---|---|---|\n`);
  process.stdout.write(`| median ratio ≤ 3 | ${r.medianRatio.toFixed(2)} | ${r.medianRatio <= 3 ? 'yes' : 'no'} |\n| worst ratio ≤ 10 | ${r.worstRatio.toFixed(2)} | ${r.worstRatio <= 10 ? 'yes' : 'no'} |\n\n`);
  save('engine', { median_ratio: r.medianRatio, worst_ratio: r.worstRatio, rows: r.rows });
}
