/**
 * @module test/precision/crossval: precision split by source repository (issue 32, "Cross-validate by
 * repository"): in-sample (labelled findings outside the held-out set), out-of-sample (inside it) and
 * per fold, per policy and overall, for high and critical findings and for all labelled ones.
 * Precision counts, as `score.ts` does, the reported findings that carry a label at the severity
 * reported: true ÷ labelled.
 */
import { FOLD_COUNT } from './folds.js';
import type { RepositorySplit } from './holdout.js';
import { ALWAYS_LABELLED, score, type JudgedFinding } from './score.js';
import type { MeasuredFinding } from './measure.js';
import type { PolicyLabels } from './labels.js';

/** Labelled findings of one slice and how many of them are true; `precision` is `null` when none is labelled. */
export interface Tally {
  readonly labelled: number;
  readonly true: number;
  readonly precision: number | null;
}

/** One view (high and critical, or all labelled) of a policy or of the whole catalog. */
export interface Split {
  readonly inSample: Tally;
  readonly outOfSample: Tally;
  /** Fold 0 … FOLD_COUNT − 1, every corpus (the held-out set included): the spread between repositories. */
  readonly folds: readonly Tally[];
}

/** Both views: `high` counts high and critical findings only, `all` every labelled finding. */
export interface SplitViews {
  readonly high: Split;
  readonly all: Split;
}

/** The figures of a whole judgement. */
export interface CrossValidation {
  readonly overall: SplitViews;
  /** One entry per catalog policy, in catalog order. */
  readonly policies: ReadonlyMap<string, SplitViews>;
}

const tally = (labelled: number, t: number): Tally => ({
  labelled,
  true: t,
  precision: labelled === 0 ? null : t / labelled,
});

class Counter {
  private readonly n = { in: [0, 0], out: [0, 0], folds: Array.from({ length: FOLD_COUNT }, () => [0, 0]) };
  add(f: JudgedFinding, split: RepositorySplit): void {
    const yes = f.label!.verdict === 'true' ? 1 : 0;
    const side = split.heldOut(f.file) ? this.n.out : this.n.in;
    const fold = this.n.folds[split.foldOf(f.file)]!;
    for (const c of [side, fold]) {
      c[0]!++;
      c[1]! += yes;
    }
  }
  split(): Split {
    const t = (c: number[]) => tally(c[0]!, c[1]!);
    return { inSample: t(this.n.in), outOfSample: t(this.n.out), folds: this.n.folds.map(t) };
  }
}

/**
 * Splits judged findings (`score(...).findings`) by `split`, for every policy of `catalog` (codes)
 * and overall. Unlabelled findings do not count. Pure; O(findings).
 * @throws Error from `split.foldOf` when a labelled finding's file has no known repository.
 */
export function crossValidate(
  findings: readonly JudgedFinding[],
  split: RepositorySplit,
  catalog: readonly string[],
): CrossValidation {
  const counters = new Map(catalog.map((c) => [c, { high: new Counter(), all: new Counter() }]));
  const overall = { high: new Counter(), all: new Counter() };
  for (const f of findings) {
    if (!f.label) continue;
    const views = counters.get(f.policy);
    for (const v of views ? [views, overall] : [overall]) {
      v.all.add(f, split);
      if (ALWAYS_LABELLED.has(f.severity)) v.high.add(f, split);
    }
  }
  const views = (c: { high: Counter; all: Counter }): SplitViews => ({ high: c.high.split(), all: c.all.split() });
  return { overall: views(overall), policies: new Map([...counters].map(([code, c]) => [code, views(c)])) };
}

/**
 * The honest first figure of a tuning round (issue 32, "Label before tuning"): the round's corpus as
 * the engine before the round reported it (`baseline`, a findings dump), judged against today's labels
 * of that corpus; in-sample is the corpus outside the held-out fold, out-of-sample the held-out fold.
 * Findings and labels of other corpora are left out (they were tuned on long before).
 */
export function beforeTuning(
  baseline: readonly MeasuredFinding[],
  labels: ReadonlyMap<string, PolicyLabels>,
  split: RepositorySplit,
  catalog: readonly string[],
): CrossValidation {
  const inCorpus = (file: string) => file.startsWith(`${split.holdout.corpus}/`);
  const corpusLabels = new Map(
    [...labels].map(([code, l]) => [
      code,
      { ...l, findings: l.findings.filter((f) => inCorpus(f.file)), ok: l.ok.filter((o) => inCorpus(o.file)) },
    ]),
  );
  const judged = score(
    baseline.filter((f) => inCorpus(f.file)),
    corpusLabels,
    catalog,
  ).findings;
  return crossValidate(judged, split, catalog);
}
