/**
 * Precision cross-validated by source repository (issue 32, "A method that generalises"): the fold
 * assignment, the held-out declaration, the in-sample / out-of-sample / per-fold split, the
 * before-tuning figures, the `--compare` rule and the masking of held-out disagreements, on synthetic
 * labels and findings (no corpus needed).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { compareSplits } from '../precision/compare.js';
import { beforeTuning, crossValidate, type CrossValidation, type Split } from '../precision/crossval.js';
import { crossValidationJson, crossValidationMarkdown } from '../precision/crossval-report.js';
import { assignFolds, FOLD_COUNT, repositoryFold } from '../precision/folds.js';
import { loadHoldout, maskHeldOut, repositorySplit, type Holdout } from '../precision/holdout.js';
import { judge } from '../precision/judge.js';
import type { FindingLabel, PolicyLabels, Verdict } from '../precision/labels.js';
import type { MeasuredFinding } from '../precision/measure.js';
import { precisionJson } from '../precision/report.js';
import { score } from '../precision/score.js';
import type { Severity } from '../../src/engine/index.js';

// Folds of these names under seed `gov-precision-folds-v1` (computed independently: first 8 hex digits of
// SHA-256 of the seed, NUL and the lower-case name, modulo 3).
const FOLD_0 = 'acme/alpha';
const FOLD_1 = 'acme/epsilon';
const FOLD_2 = 'Acme/Beta';

const HOLDOUT: Holdout = { round: 'test-round', corpus: 'make-more', fold: 2, why: 'synthetic' };

/** `make-more/a0` in fold 0, `make-more/b1` in fold 1, `make-more/c2` and `make-more/d2` in fold 2 (held out), `make/e2` in fold 2 (not held out: another corpus). */
const SOURCES = new Map([
  ['make-more/a0', FOLD_0],
  ['make-more/b1', FOLD_1],
  ['make-more/c2', FOLD_2],
  ['make-more/d2', FOLD_2.toLowerCase()],
  ['make/e2', FOLD_2],
]);
const SPLIT = repositorySplit(assignFolds(SOURCES).folds, HOLDOUT);

const finding = (policy: string, file: string, module: string, severity: Severity): MeasuredFinding => ({
  policy,
  file,
  module,
  severity,
  reason: 'r',
});
const label = (file: string, module: string, severity: Severity, verdict: Verdict): FindingLabel => ({
  file,
  module,
  severity,
  verdict,
  reason: 'reviewed',
});
const labels = (entries: Record<string, FindingLabel[]>): Map<string, PolicyLabels> =>
  new Map(Object.entries(entries).map(([policy, findings]) => [policy, { policy, findings, ok: [] }]));
const figures = (s: Split) => [s.inSample, s.outOfSample, ...s.folds].map((t) => `${t.true}/${t.labelled}`);

describe('fold assignment by repository', () => {
  it('is a fixed function of the repository name, case-insensitive', () => {
    assert.deepEqual([FOLD_0, FOLD_1, FOLD_2].map(repositoryFold), [0, 1, 2]);
    assert.equal(repositoryFold('ACME/ALPHA'), repositoryFold('acme/alpha'));
    assert.equal(repositoryFold('6302Mohamed/make-automation-projects'), 1);
  });
  it('puts every file of one repository in the same fold and counts the repository once', () => {
    const { folds, sizes } = assignFolds(SOURCES);
    assert.equal(folds.get('make-more/c2'), 2);
    assert.equal(folds.get('make-more/d2'), 2);
    assert.equal(folds.get('make/e2'), 2);
    assert.deepEqual(sizes, [
      { repositories: 1, files: 1 },
      { repositories: 1, files: 1 },
      { repositories: 1, files: 3 },
    ]);
  });
  it('fills all three folds on a list of thirty repositories, each file with its repository', () => {
    const sources = new Map<string, string>();
    for (let i = 0; i < 30; i++) for (const f of ['x', 'y']) sources.set(`make/${i}-${f}`, `owner${i}/repo`);
    const { folds, sizes } = assignFolds(sources);
    assert.equal(sizes.length, FOLD_COUNT);
    for (const s of sizes) assert.ok(s.repositories > 0, `an empty fold: ${JSON.stringify(sizes)}`);
    for (let i = 0; i < 30; i++) assert.equal(folds.get(`make/${i}-x`), folds.get(`make/${i}-y`));
  });
});

describe('held-out set', () => {
  it('holds out only the declared fold of the declared corpus', () => {
    assert.deepEqual(
      [...SOURCES.keys()].filter((f) => SPLIT.heldOut(f)),
      ['make-more/c2', 'make-more/d2'],
    );
    assert.throws(() => SPLIT.foldOf('make-more/unknown'), /make-more\/unknown: no source repository known/);
  });
  it('is declared in test/precision/holdout.json for issue 32 as fold 2 of make-more', () => {
    const h = loadHoldout();
    assert.deepEqual([h.round, h.corpus, h.fold], ['issue-32', 'make-more', 2]);
  });
  it('refuses a fold outside 0 … k − 1', () => {
    const file = `${mkdtempSync(`${tmpdir()}/holdout-`)}/holdout.json`;
    writeFileSync(file, JSON.stringify({ ...HOLDOUT, fold: FOLD_COUNT }));
    assert.throws(() => loadHoldout(file), /"fold" must be an integer from 0 to 2/);
  });
});

describe('precision split by repository', () => {
  const measured = [
    finding('SEC-1', 'make-more/a0', '1', 'high'), // true, fold 0, in-sample
    finding('SEC-1', 'make-more/b1', '1', 'high'), // overstated, fold 1, in-sample
    finding('SEC-1', 'make-more/c2', '1', 'critical'), // true, fold 2, held out
    finding('SEC-1', 'make-more/d2', '1', 'medium'), // false, fold 2, held out
    finding('SEC-1', 'make/e2', '1', 'high'), // true, fold 2, in-sample (not the held-out corpus)
    finding('SEC-1', 'make-more/c2', '2', 'high'), // unlabelled: not counted
    finding('AI-1', 'make-more/c2', '3', 'medium'), // labelled at high only: not counted
  ];
  const l = labels({
    'SEC-1': [
      label('make-more/a0', '1', 'high', 'true'),
      label('make-more/b1', '1', 'high', 'overstated'),
      label('make-more/c2', '1', 'critical', 'true'),
      label('make-more/d2', '1', 'medium', 'false'),
      label('make/e2', '1', 'high', 'true'),
    ],
    'AI-1': [label('make-more/c2', '3', 'high', 'true')],
  });
  const cv = crossValidate(score(measured, l, ['SEC-1', 'AI-1']).findings, SPLIT, ['SEC-1', 'AI-1']);

  it('gives in-sample, out-of-sample and per-fold precision of the labelled findings', () => {
    // in, out, fold 0, fold 1, fold 2
    assert.deepEqual(figures(cv.policies.get('SEC-1')!.all), ['2/3', '1/2', '1/1', '0/1', '2/3']);
    assert.deepEqual(figures(cv.policies.get('SEC-1')!.high), ['2/3', '1/1', '1/1', '0/1', '2/2']);
    assert.equal(cv.policies.get('SEC-1')!.all.outOfSample.precision, 0.5);
  });
  it('counts only findings labelled at the severity reported, overall as the sum of the policies', () => {
    assert.deepEqual(figures(cv.policies.get('AI-1')!.all), ['0/0', '0/0', '0/0', '0/0', '0/0']);
    assert.equal(cv.policies.get('AI-1')!.all.inSample.precision, null);
    assert.deepEqual(figures(cv.overall.all), ['2/3', '1/2', '1/1', '0/1', '2/3']);
  });
  it('scores the before-tuning baseline on the held-out corpus only, against its labels', () => {
    const baseline = [
      finding('SEC-1', 'make-more/a0', '1', 'high'),
      finding('SEC-1', 'make-more/c2', '1', 'critical'),
      finding('SEC-1', 'make-more/d2', '1', 'medium'),
      finding('SEC-1', 'make/e2', '1', 'high'), // another corpus: left out
    ];
    const b = beforeTuning(baseline, l, SPLIT, ['SEC-1', 'AI-1']);
    assert.deepEqual(figures(b.policies.get('SEC-1')!.all), ['1/1', '1/2', '1/1', '0/0', '1/2']);
  });
  it('writes the split into docs/precision.json beside the fields the policy pages read', () => {
    const report = judge(measured, {
      labels: l,
      catalog: ['SEC-1', 'AI-1'],
      holdout: HOLDOUT,
      sources: SOURCES,
      baseline: null,
    });
    const json = precisionJson(report);
    assert.deepEqual(Object.keys(json.policies['SEC-1']!).sort(), [
      'by_severity',
      'labelled',
      'ok_cases',
      'precision',
      'reported',
      'true',
    ]);
    assert.deepEqual(json.cross_validation.policies['SEC-1']!.all.out_of_sample, {
      labelled: 2,
      true: 1,
      precision: 0.5,
    });
    assert.equal(json.before_tuning, null);
    assert.deepEqual(crossValidationJson(report).cross_validation.holdout, HOLDOUT);
    const md = crossValidationMarkdown(report);
    assert.match(md, /## Cross-validated by repository/);
    assert.match(
      md,
      /\| SEC-1 \| 66\.7% \(2\/3\) \| 50\.0% \(1\/2\) \| 100% \(1\/1\) \| 0\.0% \(0\/1\) \| 66\.7% \(2\/3\) \|/,
    );
    assert.doesNotMatch(md, /\| AI-1 \|/, 'a policy with nothing labelled is left out');
    assert.match(md, /## Before tuning \(test-round\)\n\nNot recorded/);
  });
});

describe('--compare: a change that raises in-sample and lowers out-of-sample is not taken', () => {
  const cv = (inTrue: number, outTrue: number, outLabelled = 4): CrossValidation => {
    const t = (tr: number, n: number) => ({ labelled: n, true: tr, precision: n === 0 ? null : tr / n });
    const split: Split = { inSample: t(inTrue, 4), outOfSample: t(outTrue, outLabelled), folds: [] };
    return { overall: { high: split, all: split }, policies: new Map([['SEC-1', { high: split, all: split }]]) };
  };

  it('flags in-sample up with out-of-sample down', () => {
    const rows = compareSplits(cv(2, 3), cv(4, 2));
    assert.deepEqual(
      rows.map((r) => [r.policy, r.view, r.notTaken, r.inDelta, r.outDelta]),
      [
        ['overall', 'high', true, 0.5, -0.25],
        ['overall', 'all', true, 0.5, -0.25],
        ['SEC-1', 'high', true, 0.5, -0.25],
        ['SEC-1', 'all', true, 0.5, -0.25],
      ],
    );
  });
  it('takes a change that raises both, lowers in-sample only, or has no out-of-sample figure', () => {
    assert.ok(compareSplits(cv(2, 2), cv(4, 3)).every((r) => !r.notTaken));
    assert.ok(compareSplits(cv(4, 3), cv(2, 2)).every((r) => !r.notTaken));
    assert.ok(compareSplits(cv(2, 0, 0), cv(4, 0, 0)).every((r) => !r.notTaken && r.outDelta === null));
  });
  it('lists only what changed', () => {
    assert.deepEqual(compareSplits(cv(3, 3), cv(3, 3)), []);
  });
});

describe('held-out disagreements', () => {
  it('are counted and left out of what is shown', () => {
    const measured = [finding('SEC-1', 'make-more/a0', '1', 'high'), finding('SEC-1', 'make-more/c2', '1', 'high')];
    const s = score(measured, labels({ 'SEC-1': [label('make-more/d2', '9', 'high', 'true')] }), ['SEC-1']);
    assert.equal(s.problems.unlabelled.length, 2);
    assert.equal(s.problems.trueLost.length, 1);
    const { shown, hidden } = maskHeldOut(s.problems, SPLIT);
    assert.deepEqual(
      shown.unlabelled.map((f) => f.file),
      ['make-more/a0'],
    );
    assert.deepEqual(shown.trueLost, []);
    assert.equal(hidden, 2);
  });
});
