/**
 * @module test/precision/judge: everything `npm run precision` and `test/unit/precision.test.ts` measure
 * from one findings list: the score against the labels (`score.ts`), the figures cross-validated by
 * repository (`crossval.ts`) and the before-tuning figures of the round's baseline, when it is kept.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { RealCorpus } from '../helpers/corpus.js';
import { beforeTuning, crossValidate, type CrossValidation } from './crossval.js';
import { assignFolds, type FoldSize } from './folds.js';
import { baselineFile, repositorySplit, type Holdout, type RepositorySplit } from './holdout.js';
import type { PolicyLabels } from './labels.js';
import { LABELLED_CORPORA, type MeasuredFinding } from './measure.js';
import { score, type Score } from './score.js';

/** The whole measurement. */
export interface PrecisionReport {
  readonly score: Score;
  readonly split: RepositorySplit;
  /** Repositories and files per fold, over the corpora whose sources were read. */
  readonly foldSizes: readonly FoldSize[];
  /** Today's findings split by repository. */
  readonly crossValidation: CrossValidation;
  /** The round's baseline on its corpus; `null` when `test/precision/baseline/before-<round>.json` is absent. */
  readonly beforeTuning: CrossValidation | null;
}

/** The inputs besides the findings. */
export interface JudgeInputs {
  readonly labels: ReadonlyMap<string, PolicyLabels>;
  /** Catalog policy codes, in catalog order. */
  readonly catalog: readonly string[];
  readonly holdout: Holdout;
  /** File key (`<corpus>/<name>`) → source repository, for every file of {@link precisionCorpora}. */
  readonly sources: ReadonlyMap<string, string>;
  /** The round's baseline findings, or `null` (see {@link loadBaseline}). */
  readonly baseline: readonly MeasuredFinding[] | null;
}

/** The corpora whose facts the measurement reads: the labelled ones and the held-out set's. */
export function precisionCorpora(holdout: Holdout): RealCorpus[] {
  return [...new Set<RealCorpus>([...LABELLED_CORPORA, holdout.corpus])];
}

/** The round's baseline (`MeasuredFinding[]`), or `null` when it is not kept. @throws SyntaxError when it is not JSON. */
export function loadBaseline(holdout: Holdout): MeasuredFinding[] | null {
  const file = baselineFile(holdout);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as MeasuredFinding[]) : null;
}

/**
 * Judges `measured` (today's findings, or a dump) against the labels and splits it by repository.
 * Pure given its inputs. @throws Error when a labelled finding's file has no known repository.
 */
export function judge(measured: readonly MeasuredFinding[], inputs: JudgeInputs): PrecisionReport {
  const { folds, sizes } = assignFolds(inputs.sources);
  const split = repositorySplit(folds, inputs.holdout);
  const s = score(measured, inputs.labels, inputs.catalog);
  return {
    score: s,
    split,
    foldSizes: sizes,
    crossValidation: crossValidate(s.findings, split, inputs.catalog),
    beforeTuning: inputs.baseline && beforeTuning(inputs.baseline, inputs.labels, split, inputs.catalog),
  };
}
