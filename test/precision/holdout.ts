/**
 * @module test/precision/holdout: the held-out set of a tuning round (issue 32, "Cross-validate by
 * repository"), declared in `test/precision/holdout.json`: one fold of one corpus whose labels were
 * made before the round's rule changes, and which those changes are developed without looking at.
 * Its findings give the out-of-sample figure; `npm run precision` counts its disagreements but does
 * not show them unless asked (`--reveal-holdout`), so that tuning is not done by reading them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RealCorpus } from '../helpers/corpus.js';
import { FOLD_COUNT } from './folds.js';
import type { Problems } from './score.js';

/** The shape of `test/precision/holdout.json`. */
export interface Holdout {
  /** The tuning round (`issue-32`); its baseline is `test/precision/baseline/before-<round>.json`. */
  readonly round: string;
  /** The corpus whose fold is held out. */
  readonly corpus: RealCorpus;
  /** The held-out fold (0 … FOLD_COUNT − 1, see `folds.ts`). */
  readonly fold: number;
  /** Why this set is out of sample: when its labels were made, and what was not looked at. */
  readonly why: string;
}

/** Where the declaration lives (the source tree: it is read, never compiled). */
export const HOLDOUT_FILE = fileURLToPath(new URL('../../../test/precision/holdout.json', import.meta.url));

const CORPORA: ReadonlySet<string> = new Set<RealCorpus>(['make', 'make-extra', 'make-more']);

/**
 * Reads and checks the declaration.
 * @throws Error naming the field when `round` or `why` is empty, `corpus` is not a real corpus, or
 *   `fold` is not an integer in 0 … FOLD_COUNT − 1; ENOENT or SyntaxError when the file is missing or
 *   not JSON.
 */
export function loadHoldout(file: string = HOLDOUT_FILE): Holdout {
  const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holdout>;
  const where = 'test/precision/holdout.json';
  if (typeof data.round !== 'string' || !/^[a-z0-9-]+$/.test(data.round))
    throw new Error(`${where}: "round" must be a name such as "issue-32"`);
  if (typeof data.corpus !== 'string' || !CORPORA.has(data.corpus))
    throw new Error(`${where}: "corpus" must be one of ${[...CORPORA].join(', ')}`);
  if (!Number.isInteger(data.fold) || data.fold! < 0 || data.fold! >= FOLD_COUNT)
    throw new Error(`${where}: "fold" must be an integer from 0 to ${FOLD_COUNT - 1}`);
  if (typeof data.why !== 'string' || data.why.trim() === '') throw new Error(`${where}: "why" must say why`);
  return { round: data.round, corpus: data.corpus, fold: data.fold!, why: data.why };
}

/** Where the round's baseline (the engine's findings before the round, a `MeasuredFinding[]`) is kept. */
export function baselineFile(holdout: Holdout): string {
  return fileURLToPath(new URL(`../../../test/precision/baseline/before-${holdout.round}.json`, import.meta.url));
}

/**
 * The split of one tuning round: the fold of every file and whether it is held out.
 * `foldOf` throws an Error naming the file when its repository is not known (a file outside the
 * corpora whose facts were read).
 */
export interface RepositorySplit {
  readonly holdout: Holdout;
  foldOf(file: string): number;
  heldOut(file: string): boolean;
}

/** The split of `holdout` over files whose fold `folds` gives (`assignFolds`). */
export function repositorySplit(folds: ReadonlyMap<string, number>, holdout: Holdout): RepositorySplit {
  const foldOf = (file: string): number => {
    const fold = folds.get(file);
    if (fold === undefined) throw new Error(`${file}: no source repository known (not in the facts.json read)`);
    return fold;
  };
  return {
    holdout,
    foldOf,
    heldOut: (file) => file.startsWith(`${holdout.corpus}/`) && foldOf(file) === holdout.fold,
  };
}

/** Disagreements with the held-out files taken out, and how many were. */
export interface MaskedProblems {
  readonly shown: Problems;
  /** Disagreements on held-out files left out of `shown` (counted, not listed). */
  readonly hidden: number;
}

/**
 * `problems` without the entries on held-out files (unlabelled, wrong high, false reported, true lost,
 * ok reported), so that a report can count them without showing them: tuning is not done by reading
 * the held-out set. Policy-level entries (below target, undersampled severities, policies without an
 * ok case) and the sample candidates (for labelling, which is allowed) stay. Pure.
 */
export function maskHeldOut(problems: Problems, split: RepositorySplit): MaskedProblems {
  let hidden = 0;
  const keep = <T extends { readonly file: string }>(list: readonly T[]): T[] => {
    const out = list.filter((f) => !split.heldOut(f.file));
    hidden += list.length - out.length;
    return out;
  };
  const shown: Problems = {
    ...problems,
    unlabelled: keep(problems.unlabelled),
    wrongHigh: keep(problems.wrongHigh),
    falseReported: keep(problems.falseReported),
    trueLost: keep(problems.trueLost),
    okReported: keep(problems.okReported),
  };
  return { shown, hidden };
}
