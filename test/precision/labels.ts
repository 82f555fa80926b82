/**
 * @module test/precision/labels: the labelled precision set (issue 14, "Prove it"), one file per
 * policy in `test/precision/labels/<CODE>.json`, read from the source tree (never compiled).
 *
 * As Semgrep tests a rule with `ruleid:` and `ok:` annotations, each file lists:
 * - `findings`: reviewed findings of the policy on the development corpora, each with the severity it
 *   was reviewed at and a verdict: `true` (right finding at the right severity), `overstated` (a real
 *   risk, but the severity is too high) or `false` (not a risk at all), with one line of reason.
 *   Every high and critical finding is labelled; lower severities are labelled for a sample.
 * - `ok`: look-alikes on which the policy must not report anything (a module, or the whole file when
 *   `module` is absent).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Severity } from '../../src/engine/index.js';

/** A reviewer's verdict on one finding at one severity. */
export type Verdict = 'true' | 'overstated' | 'false';

/** One reviewed finding; `file` is `<corpus>/<blueprint file without .blueprint.json>`, `module` `''` for a scenario-level finding. */
export interface FindingLabel {
  readonly file: string;
  readonly module: string;
  readonly severity: Severity;
  readonly verdict: Verdict;
  readonly reason: string;
}

/** A look-alike the policy must not report. */
export interface OkLabel {
  readonly file: string;
  readonly module?: string;
  readonly reason: string;
}

/** The labels of one policy. */
export interface PolicyLabels {
  readonly policy: string;
  readonly findings: readonly FindingLabel[];
  readonly ok: readonly OkLabel[];
}

/** Where the label files live (the source tree, so `--write` edits what is committed). */
export const LABELS_DIR = fileURLToPath(new URL('../../../test/precision/labels/', import.meta.url));

const SEVERITIES: ReadonlySet<string> = new Set(['critical', 'high', 'medium', 'low', 'info']);
const VERDICTS: ReadonlySet<string> = new Set(['true', 'overstated', 'false']);

/**
 * Reads and checks every label file. Throws an `Error` naming the file and entry when a file is not
 * valid JSON, names another policy than its file name, or has an entry without a file, a known
 * severity, a verdict or a reason; or when one finding is labelled twice.
 */
export function loadLabels(dir: string = LABELS_DIR): Map<string, PolicyLabels> {
  const out = new Map<string, PolicyLabels>();
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const code = name.slice(0, -'.json'.length);
    const where = `test/precision/labels/${name}`;
    const data = JSON.parse(readFileSync(dir + name, 'utf8')) as PolicyLabels;
    if (data.policy !== code)
      throw new Error(`${where}: "policy" is ${JSON.stringify(data.policy)}, expected "${code}"`);
    const seen = new Set<string>();
    (data.findings ?? []).forEach((f, i) => {
      const at = `${where} findings[${i}]`;
      if (typeof f.file !== 'string' || !f.file.includes('/')) throw new Error(`${at}: "file" must be <corpus>/<name>`);
      if (typeof f.module !== 'string') throw new Error(`${at}: "module" must be a string ('' for the scenario)`);
      if (!SEVERITIES.has(f.severity)) throw new Error(`${at}: unknown severity ${JSON.stringify(f.severity)}`);
      if (!VERDICTS.has(f.verdict)) throw new Error(`${at}: verdict must be true, overstated or false`);
      if (typeof f.reason !== 'string' || f.reason.trim() === '') throw new Error(`${at}: a verdict needs a reason`);
      const key = findingKey(code, f.file, f.module, f.severity);
      if (seen.has(key)) throw new Error(`${at}: labelled twice`);
      seen.add(key);
    });
    (data.ok ?? []).forEach((o, i) => {
      if (typeof o.file !== 'string' || !o.file.includes('/') || typeof o.reason !== 'string' || o.reason.trim() === '')
        throw new Error(`${where} ok[${i}]: needs a <corpus>/<name> file and a reason`);
    });
    out.set(code, { policy: code, findings: data.findings ?? [], ok: data.ok ?? [] });
  }
  return out;
}

/** The identity of a finding at a severity: a label judges a finding at the severity it was reviewed at. */
export function findingKey(policy: string, file: string, module: string, severity: Severity): string {
  return `${policy}\u0000${file}\u0000${module}\u0000${severity}`;
}
