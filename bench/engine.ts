/**
 * @module bench/engine: engine evaluation time ÷ `JSON.parse` time of the same blueprint text, per
 * corpus blueprint, measured in the same run (issue 3 target: median ≤ 3, worst ≤ 10).
 * Run: `npm run bench -- engine` (or `node dist/bench/engine.js [--quick]`).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateBlueprint } from '../src/engine/index.js';
import { corpusDir } from './lib/corpus-dir.js';

/** One blueprint's measurement. */
export interface EngineRow {
  readonly file: string;
  readonly modules: number;
  readonly bytes: number;
  readonly parseUs: number;
  readonly evaluateUs: number;
  readonly ratio: number;
}

function timePerOp(fn: () => void, minMs: number): number {
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (let i = 0; i < 10; i++) fn();
    n += 10;
    elapsed = performance.now() - start;
  } while (elapsed < minMs);
  return (elapsed / n) * 1000;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Measures every blueprint of the `make` corpus (bench/lib/corpus-dir); `minMs` is the sampling time
 * per measurement.
 * @throws Error (ENOENT) when the corpus folder is missing: bench/run skips this scenario then
 */
export function benchEngine(minMs = 200): { rows: EngineRow[]; medianRatio: number; worstRatio: number } {
  const CORPUS = corpusDir('make');
  const rows: EngineRow[] = [];
  const files = readdirSync(CORPUS)
    .filter((f) => f.endsWith('.blueprint.json'))
    .sort();
  // Warm the engine on the whole corpus first: per-file warm-up alone left the first files measured
  // while V8 was still optimising code paths that later files exercise (a cold start, not the steady
  // state the ratio is about).
  const all = files.map((f) => JSON.parse(readFileSync(join(CORPUS, f), 'utf8')) as unknown);
  for (let i = 0; i < 20; i++)
    for (const [j, parsed] of all.entries()) evaluateBlueprint(parsed, { scenarioId: files[j]! });
  for (const file of files) {
    const text = readFileSync(join(CORPUS, file), 'utf8');
    let modules = 0;
    // The engine's input is parsed JSON; parsing is measured separately as the reference.
    const parsed: unknown = JSON.parse(text);
    const evaluate = () => {
      const r = evaluateBlueprint(parsed, { scenarioId: file });
      if (r.ok) modules = r.evaluation.module_count;
    };
    for (let i = 0; i < 50; i++) {
      JSON.parse(text);
      evaluate();
    } // warm-up (JIT)
    // Alternate short samples of both and keep the median of each, so machine noise hits both alike.
    const parses: number[] = [];
    const evals: number[] = [];
    for (let round = 0; round < 7; round++) {
      parses.push(
        timePerOp(() => {
          JSON.parse(text);
        }, minMs / 7),
      );
      evals.push(timePerOp(evaluate, minMs / 7));
    }
    const parseUs = median(parses);
    const evaluateUs = median(evals);
    rows.push({ file, modules, bytes: Buffer.byteLength(text), parseUs, evaluateUs, ratio: evaluateUs / parseUs });
  }
  const ratios = rows.map((r) => r.ratio);
  return { rows, medianRatio: median(ratios), worstRatio: Math.max(...ratios) };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { rows, medianRatio, worstRatio } = benchEngine(process.argv.includes('--quick') ? 50 : 200);
  for (const r of rows.sort((a, b) => b.ratio - a.ratio)) {
    process.stdout.write(
      `${r.ratio.toFixed(2).padStart(6)}x  ${r.evaluateUs.toFixed(0).padStart(6)} µs eval  ${r.parseUs.toFixed(0).padStart(6)} µs parse  ${String(r.modules).padStart(4)} modules  ${r.file}\n`,
    );
  }
  process.stdout.write(
    `median ratio ${medianRatio.toFixed(2)} (target ≤ 3), worst ${worstRatio.toFixed(2)} (target ≤ 10)\n`,
  );
}
