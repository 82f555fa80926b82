/**
 * @module cli/precision: the labelled precision set on the command line (`npm run precision`).
 *
 * - no flag: precision per policy and severity, cross-validated by source repository (issue 32:
 *   in-sample, out-of-sample, per fold, before tuning), and every disagreement with the labels;
 *   those on the held-out files (`test/precision/holdout.json`) are counted, not listed;
 * - `--reveal-holdout`: list the disagreements on held-out files too (not while tuning rules);
 * - `--todo`: what still needs a reviewer, as label entries to complete (verdict and reason); held-out
 *   findings are listed too (labelling them is allowed, tuning on them is not), marked as held out;
 * - `--findings <file>`: judge a findings dump (JSON array of `MeasuredFinding`, e.g. from an older
 *   engine) instead of today's engine;
 * - `--dump <file>`: write today's findings (`measureCorpora()`, a JSON array of `MeasuredFinding`)
 *   to `<file>` and nothing else, e.g. to freeze a baseline that `--findings` and `--compare` judge
 *   later (`test/precision/baseline/`);
 * - `--compare <file>`: judge an earlier findings dump and today's engine (or `--findings`) against
 *   the same labels and print, per policy, the in-sample and out-of-sample change; a policy whose
 *   in-sample figure rose while its out-of-sample one fell is flagged "not taken" (issue 32), exit 1;
 * - `--write`: write `docs/precision.json` (read by the policy pages) and `docs/precision.md`.
 *
 * The corpora are `LABELLED_CORPORA` (make, make-extra and make-more). A development tool over the
 * shared corpora (`../shared/corpus`); it reads the labels from `test/precision/labels/` and the
 * repositories of the files from each corpus's facts.json. Exit code 1 when a target is missed (see
 * `test/precision/score.ts`), 2 when the corpora are not beside the repository (a user's clone: set
 * GOV_CORPUS_DIR).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { POLICIES } from '../engine/index.js';
import { corpusPresent, missingCorpusReason } from '../../test/helpers/corpus.js';
import { compareSplits, type ComparedRow } from '../../test/precision/compare.js';
import { percent } from '../../test/precision/crossval-report.js';
import type { Tally } from '../../test/precision/crossval.js';
import { repositorySources } from '../../test/precision/folds.js';
import { loadHoldout, maskHeldOut, type RepositorySplit } from '../../test/precision/holdout.js';
import { knownKey, loadKnown } from '../../test/precision/known.js';
import { judge, loadBaseline, precisionCorpora, type JudgeInputs } from '../../test/precision/judge.js';
import { loadLabels } from '../../test/precision/labels.js';
import { measureCorpora, type MeasuredFinding } from '../../test/precision/measure.js';
import type { Problems, Score } from '../../test/precision/score.js';
import { precisionJsonText, precisionMarkdown } from '../../test/precision/report.js';

const DOCS = fileURLToPath(new URL('../../../docs/', import.meta.url));

const program = new Command()
  .name('precision')
  .description('Precision of the policy engine on the labelled corpora (issues 14 and 32)')
  .option('--todo', 'list what still needs a label')
  .option('--findings <file>', 'judge a findings dump instead of the current engine')
  .option('--dump <file>', "write the current engine's findings (JSON array of MeasuredFinding) and exit")
  .option('--compare <file>', 'per policy in- and out-of-sample change from an earlier findings dump')
  .option('--reveal-holdout', 'list the disagreements on held-out files too')
  .option('--write', 'write docs/precision.json and docs/precision.md')
  .parse();
const opts = program.opts<{
  todo?: boolean;
  findings?: string;
  dump?: string;
  compare?: string;
  revealHoldout?: boolean;
  write?: boolean;
}>();

const holdout = loadHoldout();
// Every run needs the corpora's facts (the repository of each file); today's engine needs the blueprints.
const corpora = precisionCorpora(holdout);
const absent = corpora.filter((c) => !corpusPresent(c));
if (absent.length > 0) {
  process.stderr.write(`precision: the labelled corpora are not here: ${missingCorpusReason(absent)}\n`);
  process.exit(2);
}
if (opts.dump !== undefined) {
  const findings = measureCorpora();
  writeFileSync(opts.dump, JSON.stringify(findings, null, 2) + '\n');
  process.stdout.write(`wrote ${findings.length} findings to ${opts.dump}\n`);
  process.exit(0);
}
const readDump = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as MeasuredFinding[];
const measured: MeasuredFinding[] = opts.findings ? readDump(opts.findings) : measureCorpora();
const inputs: JudgeInputs = {
  labels: loadLabels(),
  catalog: POLICIES.map((p) => p.code),
  holdout,
  sources: repositorySources(corpora),
  baseline: loadBaseline(holdout),
};
const report = judge(measured, inputs);
// Known disagreements (test/precision/known.ts) are listed apart and do not fail the run.
const known = new Set(loadKnown().map(knownKey));
const isKnown = (f: { policy: string; file: string; module: string; severity: string }) => known.has(knownKey(f));
const listedKnown = [
  ...report.score.problems.wrongHigh.filter(isKnown),
  ...report.score.problems.falseReported.filter((f) => isKnown(f) && !report.score.problems.wrongHigh.includes(f)),
  ...report.score.problems.trueLost.filter(isKnown),
].map(knownKey);
const result = {
  ...report.score,
  problems: {
    ...report.score.problems,
    wrongHigh: report.score.problems.wrongHigh.filter((f) => !isKnown(f)),
    falseReported: report.score.problems.falseReported.filter((f) => !isKnown(f)),
    trueLost: report.score.problems.trueLost.filter((f) => !isKnown(f)),
  },
};

if (opts.compare) {
  const rows = compareSplits(judge(readDump(opts.compare), inputs).crossValidation, report.crossValidation);
  process.stdout.write(compareText(opts.compare, rows));
  process.exitCode = rows.some((r) => r.notTaken) ? 1 : 0;
} else {
  if (opts.todo) process.stdout.write(todo(result.problems, report.split, opts.revealHoldout === true));
  else
    process.stdout.write(
      precisionMarkdown(report) +
        '\n' +
        problemsText(result.problems, report.split, opts.revealHoldout === true) +
        (listedKnown.length === 0
          ? ''
          : `\n## Known disagreements (${listedKnown.length}, test/precision/known-disagreements.json)\n${listedKnown.map((k) => `- ${k}`).join('\n')}\n`),
    );
  if (opts.write) {
    writeFileSync(`${DOCS}precision.json`, precisionJsonText(report));
    writeFileSync(`${DOCS}precision.md`, precisionMarkdown(report));
    process.stdout.write(`wrote docs/precision.json and docs/precision.md\n`);
  }
  process.exitCode = missed(result) ? 1 : 0;
}

function missed(s: Score): boolean {
  return Object.values(s.problems).some((list: readonly unknown[]) => list.length > 0);
}

/** One line per disagreement, grouped; those on held-out files counted only, unless `reveal`. */
function problemsText(all: Problems, split: RepositorySplit, reveal: boolean): string {
  const { shown: p, hidden } = reveal ? { shown: all, hidden: 0 } : maskHeldOut(all, split);
  const lines: string[] = [];
  const row = (f: MeasuredFinding) => `${f.policy} ${f.file} #${f.module} ${f.severity}: ${f.reason}`;
  const section = (title: string, items: readonly string[]) => {
    if (items.length > 0) lines.push(`\n## ${title} (${items.length})`, ...items.map((i) => `- ${i}`));
  };
  section('High or critical without a label', p.unlabelled.map(row));
  section(
    'High or critical labelled overstated or false',
    p.wrongHigh.map((f) => `${row(f)} — ${f.label!.verdict}: ${f.label!.reason}`),
  );
  section(
    'Labelled false and still reported',
    p.falseReported.map((f) => `${row(f)} — ${f.label!.reason}`),
  );
  section(
    'Labelled true and no longer reported at that severity',
    p.trueLost.map(
      (l) =>
        `${l.policy} ${l.file} #${l.module} ${l.severity} (now: ${l.now.map((n) => n.severity).join(', ') || 'not reported'})`,
    ),
  );
  section(
    'ok look-alikes reported',
    p.okReported.map((f) => `${row(f)} — ok because: ${f.okReason}`),
  );
  section('Policies without an ok case', p.withoutOk);
  section(
    'Below the precision target',
    p.belowTarget.map((b) => `${b.policy} ${b.severity}: ${(b.precision * 100).toFixed(0)}% of ${b.labelled}`),
  );
  section(
    'Severities with too small a sample',
    p.undersampled.map((u) => `${u.policy} ${u.severity}: ${u.labelled} of ${u.needed}`),
  );
  section('Label files for unknown policies', p.unknownPolicies);
  if (hidden > 0)
    lines.push(
      `\n## Disagreements on held-out files (${hidden})`,
      `- not listed: fold ${split.holdout.fold} of ${split.holdout.corpus} is held out for round ${split.holdout.round} (\`-- --reveal-holdout\` lists them; do not tune rules on them)`,
    );
  return lines.length === 0 ? '\nAll targets met.\n' : lines.join('\n') + '\n';
}

/**
 * Label entries to complete, per policy file: unlabelled high findings and sample candidates (held-out
 * ones under their own heading: labelling them is allowed), then stale labels and wrong high findings
 * (to fix the engine: those on held-out files counted only, unless `reveal`).
 */
function todo(all: Problems, split: RepositorySplit, reveal: boolean): string {
  const p = reveal ? all : maskHeldOut(all, split).shown;
  // Only these two of the masked lists are printed here (unlabelled held-out findings are listed to label).
  const hidden = all.trueLost.length - p.trueLost.length + all.wrongHigh.length - p.wrongHigh.length;
  const byPolicy = new Map<string, MeasuredFinding[]>();
  const add = (f: MeasuredFinding) => {
    const key = `${f.policy}\u0000${split.heldOut(f.file) ? 'held out' : ''}`;
    byPolicy.set(key, [...(byPolicy.get(key) ?? []), f]);
  };
  all.unlabelled.forEach(add);
  all.undersampled.forEach((u) => u.candidates.forEach(add));
  const out: string[] = [];
  for (const [key, list] of [...byPolicy].sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }))) {
    const [policy, heldOut] = key.split('\u0000') as [string, string];
    out.push(
      heldOut
        ? `# test/precision/labels/${policy}.json — add to "findings" (HELD OUT, round ${split.holdout.round}: label them, do not tune rules on them):`
        : `# test/precision/labels/${policy}.json — add to "findings":`,
    );
    for (const f of list)
      out.push(
        JSON.stringify({
          file: f.file,
          module: f.module,
          severity: f.severity,
          verdict: '?',
          reason: '',
          engine: f.reason,
        }),
      );
  }
  if (p.trueLost.length > 0)
    out.push(
      '# labelled true, no longer reported at that severity (relabel or fix):',
      ...p.trueLost.map(
        (l) =>
          `${l.policy} ${l.file} #${l.module} ${l.severity} → ${l.now.map((n) => n.severity).join(', ') || 'not reported'}`,
      ),
    );
  if (p.wrongHigh.length > 0)
    out.push(
      '# high or critical labelled overstated or false (fix the engine):',
      ...p.wrongHigh.map((f) => `${f.policy} ${f.file} #${f.module} ${f.severity}: ${f.label!.reason}`),
    );
  if (p.withoutOk.length > 0) out.push(`# policies without an ok case: ${p.withoutOk.join(' ')}`);
  if (hidden > 0) out.push(`# ${hidden} disagreement(s) on held-out files not listed (--reveal-holdout lists them)`);
  return out.join('\n') + '\n';
}

/** The `--compare` table: per policy and view, in- and out-of-sample before and now, flagged when not taken. */
function compareText(file: string, rows: readonly ComparedRow[]): string {
  const t = (x: Tally) => (x.labelled === 0 ? '–' : `${percent(x.precision)} (${x.true}/${x.labelled})`);
  const d = (x: number | null) => (x === null ? '–' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`);
  const view = (v: ComparedRow['view']) => (v === 'high' ? 'high+critical' : 'all labelled');
  const notTaken = rows.filter((r) => r.notTaken);
  return `# Compared with ${file}

Both judged against today's labels and split by repository; Δ in percentage points. A policy whose
in-sample figure rose while its out-of-sample one fell is not taken (issue 32).

${
  rows.length === 0
    ? ''
    : `| policy | view | in-sample before | now | Δ | out-of-sample before | now | Δ | |
|---|---|---:|---:|---:|---:|---:|---:|---|
${rows.map((r) => `| ${r.policy} | ${view(r.view)} | ${t(r.inBefore)} | ${t(r.inNow)} | ${d(r.inDelta)} | ${t(r.outBefore)} | ${t(r.outNow)} | ${d(r.outDelta)} | ${r.notTaken ? '**not taken**' : ''} |`).join('\n')}

`
}${
    rows.length === 0
      ? 'No figure changed.'
      : notTaken.length === 0
        ? 'No policy raises its in-sample figure while lowering its out-of-sample one.'
        : `Not taken: ${[...new Set(notTaken.map((r) => r.policy))].join(', ')} (in-sample rose, out-of-sample fell).`
  }
`;
}
