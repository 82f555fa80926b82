/**
 * @module bench/lib/scenarios: the registry of `npm run bench`'s scenarios: their names in run order,
 * which of their rows read the development corpora, and the command line. The README's Benchmarks
 * section and docs/benchmarks.md name the same list (test/unit/bench-scenarios.test.ts keeps them in step).
 */
import { CORPUS_ENV, missingCorpora, type CorpusName } from './corpus-dir.js';

/** The scenarios of `npm run bench`, in the order a run of all of them takes (bench/run.ts). */
export const BENCH_SCENARIOS = [
  'engine',
  'signed-reads',
  'inline',
  'isolation',
  'batches',
  'fleet',
  'soak',
  'fuzz-soak',
  'cluster',
  'scan-sarif',
] as const;

/** One scenario's name. */
export type BenchScenario = (typeof BENCH_SCENARIOS)[number];

/** Rows of a scenario that read a corpus, and the corpora they read. */
export interface CorpusRows {
  /** The scenario column of the rows, as the results table prints it. */
  readonly rows: string;
  readonly corpora: readonly CorpusName[];
}

/**
 * The rows skipped when their corpora are absent (bench/lib/corpus-dir). Every other row runs
 * without a corpus: `inline` takes the median blueprint of `examples/` instead, and the batches'
 * small fleet, fleet, soaks and cluster are built from `examples/` anyway.
 */
export const CORPUS_ROWS: Readonly<Partial<Record<BenchScenario, CorpusRows>>> = {
  engine: { rows: 'Engine (issue 3)', corpora: ['make'] },
  batches: { rows: '20 Batches CPU (corpus)', corpora: ['make'] },
  'scan-sarif': { rows: '19 gov scan SARIF', corpora: ['make', 'make-extra'] },
};

/** What `npm run bench [-- <name...>] [--quick]` asks for. */
export interface BenchArgs {
  /** The scenarios to run, in run order (all of them when none is named). */
  readonly names: readonly BenchScenario[];
  /** `--quick`: the shortened run. */
  readonly quick: boolean;
}

/**
 * Reads the bench's arguments.
 * @throws Error naming the unknown argument and the known ones (a typo used to run nothing)
 */
export function parseBenchArgs(args: readonly string[]): BenchArgs {
  const known: readonly string[] = BENCH_SCENARIOS;
  for (const a of args) {
    if (a === '--quick' || known.includes(a)) continue;
    throw new Error(`unknown argument '${a}': name scenarios among ${BENCH_SCENARIOS.join(', ')}, or --quick`);
  }
  const named = BENCH_SCENARIOS.filter((n) => args.includes(n));
  return { names: named.length === 0 ? BENCH_SCENARIOS : named, quick: args.includes('--quick') };
}

/** The scenarios whose corpus rows are skipped in this run, and the one line that says so. */
export interface CorpusSkips {
  readonly skipped: ReadonlySet<BenchScenario>;
  /** Null when nothing is skipped and no row falls back to `examples/`. */
  readonly line: string | null;
}

/**
 * Which of `names`' corpus rows (CORPUS_ROWS) cannot run because a corpus folder is missing, and
 * one line naming the rows, the missing folders and GOV_CORPUS_DIR, e.g.
 * `corpus rows skipped (Engine (issue 3)): /x/shared/corpus/make not found (set GOV_CORPUS_DIR ...)`.
 * @param env the environment to read the corpus location from (default `process.env`)
 */
export function corpusSkips(names: readonly BenchScenario[], env: NodeJS.ProcessEnv = process.env): CorpusSkips {
  const skipped = new Set<BenchScenario>();
  const missing = new Set<string>();
  for (const name of names) {
    const rows = CORPUS_ROWS[name];
    const gone = rows ? missingCorpora(rows.corpora, env) : [];
    if (gone.length === 0) continue;
    skipped.add(name);
    for (const dir of gone) missing.add(dir);
  }
  const inlineFallback = names.includes('inline') && missingCorpora(['make'], env).length > 0;
  if (inlineFallback) for (const dir of missingCorpora(['make'], env)) missing.add(dir);
  if (missing.size === 0) return { skipped, line: null };
  const what =
    skipped.size > 0 ? `corpus rows skipped (${[...skipped].map((n) => CORPUS_ROWS[n]!.rows).join(', ')})` : 'corpus';
  const inline = inlineFallback ? '; inline uses the median blueprint of examples/ instead' : '';
  return {
    skipped,
    line: `${what}: ${[...missing].join(', ')} not found (set ${CORPUS_ENV} to the folder holding make/ and make-extra/)${inline}`,
  };
}
