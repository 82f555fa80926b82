/**
 * @module cli/precision: the labelled precision set on the command line (`npm run precision`).
 *
 * - no flag: precision per policy and severity, and every disagreement with the labels;
 * - `--todo`: what still needs a reviewer, as label entries to complete (verdict and reason);
 * - `--findings <file>`: judge a findings dump (JSON array of `MeasuredFinding`, e.g. from an older
 *   engine) instead of today's engine;
 * - `--dump <file>`: write today's findings (`measureCorpora()`, a JSON array of `MeasuredFinding`)
 *   to `<file>` and nothing else, e.g. to freeze a baseline that `--findings` judges later
 *   (`test/precision/baseline/`);
 * - `--write`: write `docs/precision.json` (read by the policy pages) and `docs/precision.md`.
 *
 * The corpora are `LABELLED_CORPORA` (make, make-extra and make-more). A development tool over the
 * shared corpora (`../shared/corpus`); it reads the labels from
 * `test/precision/labels/`. Exit code 1 when a target is missed (see `test/precision/score.ts`), 2 when the
 * corpora are not beside the repository (a user's clone: set GOV_CORPUS_DIR).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { POLICIES } from '../engine/index.js';
import { loadLabels } from '../../test/precision/labels.js';
import { labelledCorporaMissing, measureCorpora, type MeasuredFinding } from '../../test/precision/measure.js';
import { score, type Problems, type Score } from '../../test/precision/score.js';
import { precisionJson, precisionMarkdown } from '../../test/precision/report.js';

const DOCS = fileURLToPath(new URL('../../../docs/', import.meta.url));

const program = new Command()
  .name('precision')
  .description('Precision of the policy engine on the labelled corpora (issue 14)')
  .option('--todo', 'list what still needs a label')
  .option('--findings <file>', 'judge a findings dump instead of the current engine')
  .option('--dump <file>', "write the current engine's findings (JSON array of MeasuredFinding) and exit")
  .option('--write', 'write docs/precision.json and docs/precision.md')
  .parse();
const opts = program.opts<{ todo?: boolean; findings?: string; dump?: string; write?: boolean }>();

const missing = opts.findings ? null : labelledCorporaMissing();
if (missing !== null) {
  process.stderr.write(`precision: the labelled corpora are not here: ${missing}\n`);
  process.exit(2);
}
if (opts.dump !== undefined) {
  const findings = measureCorpora();
  writeFileSync(opts.dump, JSON.stringify(findings, null, 2) + '\n');
  process.stdout.write(`wrote ${findings.length} findings to ${opts.dump}\n`);
  process.exit(0);
}
const measured: MeasuredFinding[] = opts.findings
  ? (JSON.parse(readFileSync(opts.findings, 'utf8')) as MeasuredFinding[])
  : measureCorpora();
const result = score(
  measured,
  loadLabels(),
  POLICIES.map((p) => p.code),
);

if (opts.todo) process.stdout.write(todo(result.problems));
else process.stdout.write(precisionMarkdown(result) + '\n' + problemsText(result.problems));
if (opts.write) {
  writeFileSync(`${DOCS}precision.json`, JSON.stringify(precisionJson(result), null, 2) + '\n');
  writeFileSync(`${DOCS}precision.md`, precisionMarkdown(result));
  process.stdout.write(`wrote docs/precision.json and docs/precision.md\n`);
}
process.exitCode = missed(result) ? 1 : 0;

function missed(s: Score): boolean {
  return Object.values(s.problems).some((list: readonly unknown[]) => list.length > 0);
}

/** One line per disagreement, grouped. */
function problemsText(p: Problems): string {
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
  return lines.length === 0 ? '\nAll targets met.\n' : lines.join('\n') + '\n';
}

/** Label entries to complete, per policy file: unlabelled high findings, sample candidates, stale labels. */
function todo(p: Problems): string {
  const byPolicy = new Map<string, MeasuredFinding[]>();
  const add = (f: MeasuredFinding) => byPolicy.set(f.policy, [...(byPolicy.get(f.policy) ?? []), f]);
  p.unlabelled.forEach(add);
  p.undersampled.forEach((u) => u.candidates.forEach(add));
  const out: string[] = [];
  for (const [policy, list] of [...byPolicy].sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }))) {
    out.push(`# test/precision/labels/${policy}.json — add to "findings":`);
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
  return out.join('\n') + '\n';
}
