/**
 * @module test/precision/compare: the rule of issue 32 ("a change that raises the in-sample figure and
 * lowers the out-of-sample one is not taken") applied to two judgements of the same labels: an earlier
 * engine's findings (a dump from `npm run precision -- --dump`) and today's.
 */
import type { CrossValidation, Split, SplitViews, Tally } from './crossval.js';

/** One policy (or `overall`) in one view, before and after. Deltas are in precision units (0.05 = 5 points), `null` when either side has nothing labelled. */
export interface ComparedRow {
  readonly policy: string;
  readonly view: keyof SplitViews;
  readonly inBefore: Tally;
  readonly inNow: Tally;
  readonly outBefore: Tally;
  readonly outNow: Tally;
  readonly inDelta: number | null;
  readonly outDelta: number | null;
  /** In-sample rose and out-of-sample fell: the change is not taken (issue 32). */
  readonly notTaken: boolean;
}

const delta = (before: Tally, now: Tally): number | null =>
  before.precision === null || now.precision === null ? null : now.precision - before.precision;

// Deltas below this are rounding noise of floating-point division, not a change of verdict counts.
const EPSILON = 1e-9;

function row(policy: string, view: keyof SplitViews, before: Split, now: Split): ComparedRow {
  const inDelta = delta(before.inSample, now.inSample);
  const outDelta = delta(before.outOfSample, now.outOfSample);
  return {
    policy,
    view,
    inBefore: before.inSample,
    inNow: now.inSample,
    outBefore: before.outOfSample,
    outNow: now.outOfSample,
    inDelta,
    outDelta,
    notTaken: inDelta !== null && outDelta !== null && inDelta > EPSILON && outDelta < -EPSILON,
  };
}

/**
 * Every policy of `now` (and `overall` first), in both views (`high`, `all`), whose figures differ
 * between `before` and `now` or that is not taken; a policy missing from `before` counts as nothing
 * labelled there. Pure.
 */
export function compareSplits(before: CrossValidation, now: CrossValidation): ComparedRow[] {
  const none: Tally = { labelled: 0, true: 0, precision: null };
  const emptySplit: Split = { inSample: none, outOfSample: none, folds: [] };
  const out: ComparedRow[] = [];
  const entries: [string, SplitViews, SplitViews][] = [
    ['overall', before.overall, now.overall],
    ...[...now.policies].map(([code, v]): [string, SplitViews, SplitViews] => [
      code,
      before.policies.get(code) ?? { high: emptySplit, all: emptySplit },
      v,
    ]),
  ];
  for (const [policy, b, n] of entries) {
    for (const view of ['high', 'all'] as const) {
      const r = row(policy, view, b[view], n[view]);
      const same = (x: Tally, y: Tally) => x.labelled === y.labelled && x.true === y.true;
      if (r.notTaken || !same(r.inBefore, r.inNow) || !same(r.outBefore, r.outNow)) out.push(r);
    }
  }
  return out;
}
