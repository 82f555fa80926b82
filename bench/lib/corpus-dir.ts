/**
 * @module bench/lib/corpus-dir: where the benchmarks read the development corpora of real Make.com
 * blueprints (`make/`, `make-extra/`, ...), from one place. They are read in place and never copied
 * into the repository; a fresh clone has none, and the rows that need them are skipped (bench/run).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (this file is compiled to `dist/bench/lib/`). */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** The environment variable naming the folder that CONTAINS the corpora (`$GOV_CORPUS_DIR/make/`). */
export const CORPUS_ENV = 'GOV_CORPUS_DIR';

/** A corpus the benchmarks read: a folder of `*.blueprint.json` files under the corpus root. */
export type CorpusName = 'make' | 'make-extra';

/**
 * The folder holding the corpora: `GOV_CORPUS_DIR` (resolved against the working directory when
 * relative; an empty value counts as unset), else `<repo>/../shared/corpus`, the development
 * machines' layout. Whether it exists is not checked here (see `missingCorpora`).
 * @param env the environment to read (default `process.env`)
 * @returns an absolute path without a trailing slash
 */
export function corpusRoot(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[CORPUS_ENV];
  return fromEnv ? resolve(fromEnv) : resolve(REPO, '..', 'shared', 'corpus');
}

/** The folder of corpus `name`: `<corpusRoot(env)>/<name>`, absolute, without a trailing slash. */
export function corpusDir(name: CorpusName, env: NodeJS.ProcessEnv = process.env): string {
  return join(corpusRoot(env), name);
}

/** The folders of `names` that do not exist, in the order given (empty when every one is there). */
export function missingCorpora(names: readonly CorpusName[], env: NodeJS.ProcessEnv = process.env): string[] {
  return names.map((n) => corpusDir(n, env)).filter((dir) => !existsSync(dir));
}
