/**
 * @module test/precision/folds: the split of the labelled corpora by source repository (issue 32,
 * "Cross-validate by repository"). Every repository falls in one of {@link FOLD_COUNT} folds, fixed by
 * a hash of its name, so a file's fold is its repository's and the files of one repository are never
 * split between folds: rules are judged on repositories they were not developed against.
 */
import { createHash } from 'node:crypto';
import { corpusFacts, type RealCorpus } from '../helpers/corpus.js';
import { fileKey } from './measure.js';

/**
 * The seed of the fold assignment. Fixed (issue 32: "k-fold, k ≥ 3, fixed seed"): changing it moves
 * repositories between folds, and so between the held-out set and the rest, which voids every figure
 * measured so far. A new seed is a new protocol (`-v2`), never an edit.
 */
export const FOLD_SEED = 'gov-precision-folds-v1';

/** The number of folds k (issue 32: k ≥ 3). */
export const FOLD_COUNT = 3;

/**
 * The fold (0 … {@link FOLD_COUNT} − 1) of a source repository `owner/name` (case-insensitive, as
 * GitHub names are): the first 32 bits of SHA-256(`FOLD_SEED` NUL `source` in lower case), modulo k.
 * Deterministic across machines and runs.
 */
export function repositoryFold(source: string): number {
  const digest = createHash('sha256').update(`${FOLD_SEED}\u0000${source.toLowerCase()}`).digest('hex');
  return parseInt(digest.slice(0, 8), 16) % FOLD_COUNT;
}

/** How many repositories and files one fold holds. */
export interface FoldSize {
  readonly repositories: number;
  readonly files: number;
}

/**
 * The fold of every file: `sources` maps a file key (`<corpus>/<name>`, as the labels name files) to
 * its source repository `owner/name`. Returns the fold per file and the size of each fold
 * (repositories counted once, case-insensitively).
 */
export function assignFolds(sources: ReadonlyMap<string, string>): {
  readonly folds: ReadonlyMap<string, number>;
  readonly sizes: readonly FoldSize[];
} {
  const folds = new Map<string, number>();
  const repos = Array.from({ length: FOLD_COUNT }, () => new Set<string>());
  const files = new Array<number>(FOLD_COUNT).fill(0);
  for (const [file, source] of sources) {
    const fold = repositoryFold(source);
    folds.set(file, fold);
    repos[fold]!.add(source.toLowerCase());
    files[fold]!++;
  }
  return { folds, sizes: repos.map((r, i) => ({ repositories: r.size, files: files[i]! })) };
}

/**
 * The source repository of every blueprint of `corpora`, keyed like the labels (`make-more/<name>`),
 * from each corpus's facts.json (`source`, the GitHub repository `owner/name`).
 * @throws Error when a corpus is absent (ENOENT: call it where the corpora are known to be present) or
 *   a blueprint has no `source`.
 */
export function repositorySources(corpora: readonly RealCorpus[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const corpus of corpora) {
    for (const facts of corpusFacts(corpus)) {
      if (typeof facts.source !== 'string' || !facts.source.includes('/'))
        throw new Error(`${corpus}/facts.json: ${facts.file} has no source repository (owner/name)`);
      out.set(fileKey(corpus, facts.file), facts.source);
    }
  }
  return out;
}
