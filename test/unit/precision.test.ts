/**
 * The labelled precision set (issue 14, "Prove it"): the engine's findings on the labelled development
 * corpora (`LABELLED_CORPORA`: make, make-extra, make-more) against the reviewer's labels in `test/precision/labels/`. Fails when a high or critical
 * finding is unlabelled or not true, a finding labelled false is reported, a finding labelled true
 * is lost, an `ok` look-alike is reported, a policy has no `ok` case, a policy falls below 90% at a
 * severity, or a severity's sample is short; reports precision per policy. `npm run precision --
 * --todo` lists what to label. Disagreements on the held-out files of the tuning round
 * (`test/precision/holdout.json`) fail it too, counted without being named; `docs/precision.json`
 * must hold today's figures, cross-validated by repository (issue 32) included.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { POLICIES } from '../../src/engine/index.js';
import { corpusSuite } from '../helpers/corpus.js';
import { repositorySources } from '../precision/folds.js';
import { loadHoldout, maskHeldOut } from '../precision/holdout.js';
import { judge, loadBaseline, precisionCorpora, type PrecisionReport } from '../precision/judge.js';
import { knownKey, loadKnown } from '../precision/known.js';
import { loadLabels, type PolicyLabels } from '../precision/labels.js';
import { measureCorpora, type MeasuredFinding } from '../precision/measure.js';
import { precisionJson } from '../precision/report.js';
import { overallPrecision, score, type Score } from '../precision/score.js';

const row = (f: MeasuredFinding) => `${f.policy} ${f.file} #${f.module} ${f.severity}`;

/** Known disagreements (`test/precision/known.ts`). */
const KNOWN = loadKnown();
const KNOWN_KEYS = new Set(KNOWN.map(knownKey));
const usedKnown = new Set<string>();

/** The labels without the known disagreements' entries. */
function withoutKnownLabels(labels: ReadonlyMap<string, PolicyLabels>): Map<string, PolicyLabels> {
  const out = new Map<string, PolicyLabels>();
  for (const [code, l] of labels)
    out.set(code, { ...l, findings: l.findings.filter((f) => !KNOWN_KEYS.has(knownKey({ policy: code, ...f }))) });
  return out;
}

/** The labels without the entries on held-out files. */
function withoutHeldOut(
  labels: ReadonlyMap<string, PolicyLabels>,
  heldOut: (file: string) => boolean,
): Map<string, PolicyLabels> {
  const out = new Map<string, PolicyLabels>();
  for (const [code, l] of labels)
    out.set(code, {
      ...l,
      findings: l.findings.filter((f) => !heldOut(f.file)),
      ok: l.ok.filter((o) => !heldOut(o.file)),
    });
  return out;
}
const holdout = loadHoldout();

corpusSuite('labelled precision set', precisionCorpora(holdout), ({ it, before }) => {
  let report: PrecisionReport;
  let s: Score;
  let hidden: number;
  before(() => {
    const measured = measureCorpora();
    const labels = loadLabels();
    report = judge(measured, {
      labels,
      catalog: POLICIES.map((p) => p.code),
      holdout,
      sources: repositorySources(precisionCorpora(holdout)),
      baseline: loadBaseline(holdout),
    });
    // Disagreements on held-out files are counted by a test of their own rather than named (issue 32:
    // rules are not tuned by reading them; `npm run precision -- --reveal-holdout` names them).
    const masked = maskHeldOut(report.score.problems, report.split);
    hidden = masked.hidden;
    // The strict checks below judge the in-sample labels alone, policy-level ones (precision per
    // severity, sample sizes) included: the held-out files have their own target above.
    const catalog = POLICIES.map((p) => p.code);
    const inSampleLabels = withoutHeldOut(labels, (file) => report.split.heldOut(file));
    const inSampleFindings = measured.filter((f) => !report.split.heldOut(f.file));
    // Which known disagreements still disagree, judged with them in; the strict checks judge without them.
    const full = score(inSampleFindings, inSampleLabels, catalog);
    const wrong = full.findings.filter((f) => f.label !== undefined && f.label !== null && f.label.verdict !== 'true');
    for (const f of [...wrong, ...full.problems.trueLost]) if (KNOWN_KEYS.has(knownKey(f))) usedKnown.add(knownKey(f));
    s = score(
      inSampleFindings.filter((f) => !KNOWN_KEYS.has(knownKey(f))),
      withoutKnownLabels(inSampleLabels),
      catalog,
    );
  });

  // The held-out files are held to the target rather than to every label (issue 32, "Targets"):
  // at least 90% of their high and critical findings true and none false, each one labelled. Other
  // disagreements there are counted in diagnostics, not named: rules are not tuned by reading them.
  it('meets the target on the held-out files: every high labelled, >= 90% true, none false (counted, not named)', (t) => {
    const held = <T extends { readonly file: string }>(list: readonly T[]) =>
      list.filter((f) => report.split.heldOut(f.file));
    const p = report.score.problems;
    const high = report.crossValidation.overall.high.outOfSample;
    const falseHigh = held(p.wrongHigh).filter((f) => f.label!.verdict === 'false').length;
    t.diagnostic(
      `held out: ${high.true}/${high.labelled} high or critical true; ${hidden} disagreement(s) in all (\`npm run precision -- --reveal-holdout\`)`,
    );
    assert.equal(
      held(p.unlabelled).length,
      0,
      'unlabelled high findings on held-out files: `npm run precision -- --todo`',
    );
    assert.equal(falseHigh, 0, 'high or critical findings labelled false on held-out files');
    assert.ok(
      high.precision === null || high.precision >= 0.9,
      `held-out high and critical precision ${high.true}/${high.labelled} is under 90%`,
    );
  });
  it('labels every high and critical finding, each one true', () => {
    assert.deepEqual(s.problems.unlabelled.map(row), [], 'unlabelled: run `npm run precision -- --todo`');
    assert.deepEqual(
      s.problems.wrongHigh.map((f) => `${row(f)}: ${f.label!.verdict}, ${f.label!.reason}`),
      [],
    );
  });
  it('never reports a finding labelled false', () => {
    assert.deepEqual(
      s.problems.falseReported.map((f) => `${row(f)}: ${f.label!.reason}`),
      [],
    );
  });
  it('still reports every finding labelled true, at its severity', () => {
    assert.deepEqual(
      s.problems.trueLost.map(
        (l) =>
          `${l.policy} ${l.file} #${l.module} ${l.severity} → ${l.now.map((n) => n.severity).join(', ') || 'gone'}`,
      ),
      [],
    );
  });
  it('lists only known disagreements that still disagree', () => {
    assert.deepEqual(
      KNOWN.map(knownKey).filter((k) => !usedKnown.has(k)),
      [],
      'stale entries in test/precision/known-disagreements.json',
    );
  });
  it('reports none of the ok look-alikes, and every policy has one', () => {
    assert.deepEqual(
      s.problems.okReported.map((f) => `${row(f)} (ok: ${f.okReason})`),
      [],
    );
    assert.deepEqual(s.problems.withoutOk, [], 'policies without an ok case');
    assert.deepEqual(s.problems.unknownPolicies, [], 'label files for codes not in the catalog');
  });
  it('keeps every policy at 90% precision or more at every severity, on a sample of each', (t) => {
    assert.deepEqual(
      s.problems.undersampled.map((u) => `${u.policy} ${u.severity}: ${u.labelled} of ${u.needed}`),
      [],
      'run `npm run precision -- --todo`',
    );
    assert.deepEqual(
      s.problems.belowTarget.map(
        (b) => `${b.policy} ${b.severity}: ${(b.precision * 100).toFixed(1)}% of ${b.labelled}`,
      ),
      [],
    );
    const overall = overallPrecision(s);
    t.diagnostic(`overall precision ${overall.true}/${overall.labelled}`);
    for (const p of s.policies)
      if (p.precision !== null)
        t.diagnostic(`${p.policy} ${(p.precision * 100).toFixed(1)}% (${p.true}/${p.labelled})`);
  });
  it('matches docs/precision.json (regenerate with `npm run precision -- --write`)', () => {
    const committed: unknown = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../../docs/precision.json', import.meta.url)), 'utf8'),
    );
    assert.deepEqual(committed, JSON.parse(JSON.stringify(precisionJson(report))));
  });
});

describe('label files', () => {
  it('are refused when a verdict has no reason', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(`${tmpdir()}/labels-`) + '/';
    writeFileSync(
      `${dir}SEC-1.json`,
      JSON.stringify({
        policy: 'SEC-1',
        findings: [{ file: 'make/x', module: '1', severity: 'high', verdict: 'true', reason: '' }],
        ok: [],
      }),
    );
    assert.throws(() => loadLabels(dir), /SEC-1\.json findings\[0\]: a verdict needs a reason/);
  });
  it('judge a finding only at the severity it was reviewed at', () => {
    const finding: MeasuredFinding = { file: 'make/x', policy: 'SEC-1', module: '3', severity: 'medium', reason: 'r' };
    const labels = new Map([
      [
        'SEC-1',
        {
          policy: 'SEC-1',
          findings: [
            { file: 'make/x', module: '3', severity: 'high' as const, verdict: 'true' as const, reason: 'a key' },
          ],
          ok: [],
        },
      ],
    ]);
    const judged = score([finding], labels, ['SEC-1']);
    assert.equal(judged.problems.trueLost.length, 1, 'a true high finding reported as medium is lost at high');
    assert.equal(judged.findings[0]!.label, undefined);
  });
});
