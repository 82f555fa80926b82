/**
 * @module bench/scenarios/scan-sarif: issue 19, `gov scan --format sarif` over 1,020 files as a CI
 * job runs it: the 75 blueprints of the development corpora (`make/` and
 * `make-extra/` of bench/lib/corpus-dir) copied round-robin into a temporary directory (never into the repository) until
 * there are 1,020, then the real CLI in a child process writing the log to a file. Measured per
 * round: wall time, CPU time and maximum RSS of the child (its own `process.resourceUsage()`,
 * reported at exit by a preloaded hook, so no external `time` is needed); the same tree scanned
 * with `--format table` gives the scan's own cost, for the ratio SARIF ÷ table.
 * Target (issue 19): under 5 s and under 200 MB (the scanner before issue 19: 53 s and 515 MB).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forget, killAtExit, removeAtExit } from '../lib/cleanup.js';
import { corpusDir } from '../lib/corpus-dir.js';

/** The corpora copied into the scanned tree (bench/run skips the scenario when one is missing). */
export const SCAN_CORPORA = ['make', 'make-extra'] as const;
const GOV = fileURLToPath(new URL('../../src/cli/gov.js', import.meta.url));
/** Files scanned (issue 19's figure). */
export const SCAN_FILES = 1020;

/** Preloaded into the child: prints its resource usage on stderr as it exits. */
const RUSAGE_HOOK =
  'data:text/javascript,import { writeSync } from "node:fs"; process.on("exit", () => { const u = process.resourceUsage(); writeSync(2, `\\nGOV_BENCH_RUSAGE ${JSON.stringify(u)}\\n`); });';

/** One run of the CLI. */
export interface ScanRun {
  readonly wallMs: number;
  /** User plus system CPU time of the child, ms. */
  readonly cpuMs: number;
  /** Maximum resident set size of the child, bytes. */
  readonly maxRssBytes: number;
  readonly exitCode: number | null;
}

/** Results of the scenario: the median round of each format, and every round. */
export interface ScanSarifBench {
  readonly files: number;
  readonly bytes: number;
  readonly sarif: ScanRun;
  readonly table: ScanRun;
  readonly sarifBytes: number;
  readonly rounds: { readonly sarif: ScanRun[]; readonly table: ScanRun[] };
}

/** Copies the corpus blueprints round-robin into `dir` (100 per subdirectory) until there are `count`. */
function buildTree(dir: string, count: number): number {
  const corpora = SCAN_CORPORA.map((c) => corpusDir(c));
  const sources = corpora.flatMap((c) =>
    readdirSync(c)
      .filter((f) => f.endsWith('.blueprint.json'))
      .sort()
      .map((f) => join(c, f)),
  );
  if (sources.length === 0) throw new Error(`no blueprints in ${corpora.join(', ')}`);
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const sub = join(dir, `batch-${String(Math.floor(i / 100)).padStart(2, '0')}`);
    if (i % 100 === 0) mkdirSync(sub, { recursive: true });
    const source = sources[i % sources.length]!;
    copyFileSync(source, join(sub, `${i}-${source.split('/').at(-1)!}`));
    bytes += statSync(source).size;
  }
  return bytes;
}

function runGov(args: readonly string[], cwd: string): Promise<ScanRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', RUSAGE_HOOK, GOV, ...args], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    killAtExit(child);
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.once('error', reject);
    child.once('close', (exitCode) => {
      const wallMs = performance.now() - started;
      const line = /GOV_BENCH_RUSAGE (\{.*\})/.exec(err);
      if (!line) {
        reject(new Error(`gov ${args.join(' ')} exited ${exitCode} without its resource usage: ${err.slice(-500)}`));
        return;
      }
      const u = JSON.parse(line[1]!) as { userCPUTime: number; systemCPUTime: number; maxRSS: number };
      // resourceUsage(): CPU times in microseconds, maxRSS in kilobytes.
      resolve({
        wallMs,
        cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000,
        maxRssBytes: u.maxRSS * 1024,
        exitCode,
      });
    });
  });
}

function median(runs: readonly ScanRun[]): ScanRun {
  return [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)]!;
}

/** Runs the scenario: `rounds` alternating rounds of the SARIF scan and the table scan of the same tree. */
export async function benchScanSarif(rounds: number): Promise<ScanSarifBench> {
  const dir = removeAtExit(mkdtempSync(join(tmpdir(), 'gov-bench-scan-')));
  try {
    const tree = join(dir, 'blueprints');
    const bytes = buildTree(tree, SCAN_FILES);
    const out = join(dir, 'gov.sarif');
    const sarif: ScanRun[] = [];
    const table: ScanRun[] = [];
    for (let i = 0; i < rounds; i++) {
      sarif.push(await runGov(['scan', 'blueprints', '--format', 'sarif', '--output', out, '--fail-on', 'none'], dir));
      table.push(await runGov(['scan', 'blueprints', '--quiet', '--fail-on', 'none'], dir));
    }
    for (const r of [...sarif, ...table])
      if (r.exitCode !== 0) throw new Error(`gov scan exited ${r.exitCode} (expected 0 with --fail-on none)`);
    return {
      files: SCAN_FILES,
      bytes,
      sarif: median(sarif),
      table: median(table),
      sarifBytes: statSync(out).size,
      rounds: { sarif, table },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    forget(dir);
  }
}
