/**
 * @module test/helpers/corpus: the blueprint corpora the tests read. `fixtures` is the repository's own
 * (test/fixtures/corpus/, written here); `make`, `make-extra` and `make-more` are the real exports of
 * `../shared/corpus/` (or `$GOV_CORPUS_DIR`), read in place and never copied, and absent from a user's
 * clone: a suite that needs them is declared with {@link corpusSuite}, which skips it with one line
 * when they are missing. This is the only test module that knows where `../shared` is (the corpora,
 * and the spec whose error rows test/fixtures/spec-errors.ts carries).
 */
import { after, before, describe, it } from 'node:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPUS_ENV, corpusRoot } from '../../bench/lib/corpus-dir.js';
import { FIXTURE_CORPUS_DIR } from './fixtures.js';

/** The real corpora of `../shared/corpus/` (not in the repository). */
export type RealCorpus = 'make' | 'make-extra' | 'make-more';
/** A corpus: a folder of `*.blueprint.json` files and their verified `facts.json`. */
export type CorpusName = RealCorpus | 'fixtures';

/**
 * The folder of the real corpora: `$GOV_CORPUS_DIR` (resolved against the working directory), else
 * `../shared/corpus/` beside the repository; the benchmarks read the same (bench/lib/corpus-dir).
 */
export const REAL_CORPUS_ROOT = corpusRoot();

/**
 * The customer's specification beside the repository (`../shared/spec/public-api-v1.md`), absent from a
 * user's clone: the tests carry its error rows (test/fixtures/spec-errors.ts) and compare them with it
 * when it is here.
 */
export const SHARED_SPEC_FILE = fileURLToPath(new URL('../../../../shared/spec/public-api-v1.md', import.meta.url));

/** How the documents name a real corpus's folder: `../shared/corpus/<name>/` (docs/precision.md). */
export function corpusLabel(corpus: RealCorpus): string {
  return `../shared/corpus/${corpus}/`;
}

/** The folder of a corpus. */
export function corpusDir(corpus: CorpusName): string {
  return corpus === 'fixtures' ? FIXTURE_CORPUS_DIR : join(REAL_CORPUS_ROOT, corpus);
}

/** How many blueprints each real corpus holds (its MANIFEST.md), so that a truncated copy fails. */
export const REAL_CORPUS_SIZE: Readonly<Record<RealCorpus, number>> = { make: 50, 'make-extra': 25, 'make-more': 60 };

/** Whether a corpus is here: its folder holds `facts.json` (the fixtures always are). */
export function corpusPresent(corpus: CorpusName): boolean {
  return existsSync(join(corpusDir(corpus), 'facts.json'));
}

/** One blueprint's verified facts (a corpus's facts.json; test/fixtures/corpus/README.md describes the fields). */
export interface CorpusFacts {
  readonly file: string;
  /** Real corpora: the GitHub repository the blueprint was taken from, `owner/name` (the precision set's folds). */
  readonly source?: string;
  readonly webhook_trigger: boolean;
  readonly error_handlers: boolean;
  readonly ai: boolean;
  readonly flags: Readonly<Record<string, string>>;
  readonly credentials: readonly { path: string; kind: string }[];
  readonly placeholder_credentials: readonly string[];
  readonly plain_http: readonly string[];
  readonly ai_modules: readonly string[];
  /** Fixtures only: a filter verifies the webhook trigger's shared secret before anything runs. */
  readonly webhook_verified?: boolean;
}

/**
 * All facts of a corpus, one entry per blueprint.
 * @throws Error (ENOENT) when the corpus is absent: call it only inside a {@link corpusSuite}'s tests or hooks.
 */
export function corpusFacts(corpus: CorpusName = 'make'): CorpusFacts[] {
  return (JSON.parse(readFileSync(join(corpusDir(corpus), 'facts.json'), 'utf8')) as { blueprints: CorpusFacts[] })
    .blueprints;
}

/** The raw text of one corpus blueprint. @throws Error (ENOENT) when absent, as {@link corpusFacts}. */
export function corpusText(file: string, corpus: CorpusName = 'make'): string {
  return readFileSync(join(corpusDir(corpus), file), 'utf8');
}

/** One corpus blueprint as parsed JSON (a UTF-8 BOM, as in some exports, is dropped first). */
export function corpusJson(file: string, corpus: CorpusName = 'make'): unknown {
  return JSON.parse(corpusText(file, corpus).replace(/^\uFEFF/, ''));
}

/** `$.flow[1].routes[0].flow[2].mapper.url` → `/flow/1/routes/0/flow/2/mapper/url`. */
export function jsonPathToPointer(path: string): string {
  return path
    .replace(/^\$/, '')
    .replace(/\[(\d+)\]/g, '/$1')
    .replace(/\.([^./[]+)/g, '/$1');
}

/** The value at a facts.json path in a parsed blueprint (undefined when absent). */
export function valueAt(blueprint: unknown, path: string): unknown {
  let at: unknown = blueprint;
  for (const token of jsonPathToPointer(path).split('/').slice(1)) {
    at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[token] : undefined;
  }
  return at;
}

/** The node:test functions a corpus suite declares its tests with (see {@link corpusSuite}). */
export interface SuiteApi {
  readonly it: typeof it;
  readonly describe: typeof describe;
  readonly before: typeof before;
  readonly after: typeof after;
}

const REAL: SuiteApi = { it, describe, before, after };

/** The line a skipped suite prints: the missing folders and how to point the tests at them. */
export function missingCorpusReason(missing: readonly RealCorpus[]): string {
  return `${missing.map((c) => corpusDir(c)).join(', ')} not found (set ${CORPUS_ENV} to the folder holding ${missing.join(', ')})`;
}

/**
 * Declares a suite that reads real corpora. When they are all here it is an ordinary `describe(title)`
 * whose tests `body` declares with the given `api`. When one is missing, `body` runs with stand-ins that
 * only count what it declares, and the suite is one skipped test, `<title>: <n> tests`, whose reason
 * names the missing folders: one line, never an ENOENT. So `body` must not read a corpus while it
 * declares (read in tests and hooks); `test/integration/fresh-clone.test.ts` holds every suite to that.
 */
export function corpusSuite(title: string, corpora: readonly CorpusName[], body: (api: SuiteApi) => void): void {
  const missing = corpora.filter((c): c is RealCorpus => c !== 'fixtures' && !corpusPresent(c));
  if (missing.length === 0) {
    describe(title, () => body(REAL));
    return;
  }
  let count = 0;
  const fnOf = (args: unknown[]) => args.find((a): a is () => void => typeof a === 'function');
  const counting: SuiteApi = {
    it: ((..._args: unknown[]) => {
      count++;
    }) as unknown as typeof it,
    describe: ((...args: unknown[]) => {
      fnOf(args)?.();
    }) as unknown as typeof describe,
    before: (() => undefined) as typeof before,
    after: (() => undefined) as typeof after,
  };
  body(counting);
  it(`${title}: ${count} test${count === 1 ? '' : 's'}`, { skip: missingCorpusReason(missing) }, () => undefined);
}

/**
 * {@link corpusSuite} once per corpus, titled `<title> (<corpus>)`: the repository's fixtures always run,
 * each real corpus when it is here.
 */
export function eachCorpus(
  title: string,
  corpora: readonly CorpusName[],
  body: (corpus: CorpusName, api: SuiteApi) => void,
): void {
  for (const corpus of corpora) corpusSuite(`${title} (${corpus})`, [corpus], (api) => body(corpus, api));
}

/**
 * Credentials found by review that a set's facts.json does not record (to be reported to the corpus
 * owner). Precision tests expect SEC-1 to report exactly the recorded credentials and these.
 */
export const UNRECORDED_CREDENTIALS: Readonly<
  Record<CorpusName, Readonly<Record<string, readonly { path: string; kind: string }[]>>>
> = {
  make: {
    // Module 19 and its three siblings POST a literal TOTP seed (`"secret": "<32 base32>"`, `"algorithm": "SHA1"`,
    // RFC 6238 shared secret K) of a shared account to a TOTP generator: anyone with the export can mint that account's codes.
    'luxisoft-automatizacion-venta.blueprint.json': [0, 1, 2, 3].map((route) => ({
      path: `$.flow[1].routes[3].flow[7].routes[0].flow[1].routes[1].flow[0].routes[0].flow[0].routes[${route}].flow[0].mapper.data`,
      kind: 'totp-shared-secret-in-json-body',
    })),
  },
  'make-extra': {},
  'make-more': {},
  fixtures: {},
};
