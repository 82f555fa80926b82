/**
 * @module test/precision/measure: every finding the engine reports on the development corpora
 * (`make/`, `make-extra/` and `make-more/`), one row per policy and failing module, in a stable order.
 */
import { evaluateBlueprint } from '../../src/engine/index.js';
import type { Severity } from '../../src/engine/index.js';
import { corpusFacts, corpusJson, corpusPresent, missingCorpusReason, type RealCorpus } from '../helpers/corpus.js';

/**
 * The corpora the labelled set covers: `make` and `make-extra` (issue 14, "Prove it"), and
 * `make-more`, labelled with the engine of commit a9a8a18 before any rule was tuned on it (issue 32,
 * "Label before tuning"; frozen in `test/precision/baseline/before-issue-32.json`).
 */
export const LABELLED_CORPORA: readonly RealCorpus[] = ['make', 'make-extra', 'make-more'];

/**
 * Why the labelled corpora cannot be measured here (`<folder> not found (set GOV_CORPUS_DIR ...)`), or
 * null when they are all present: they live beside the repository, not in it.
 */
export function labelledCorporaMissing(): string | null {
  const missing = LABELLED_CORPORA.filter((c) => !corpusPresent(c));
  return missing.length === 0 ? null : missingCorpusReason(missing);
}

/** One finding: `file` is `<corpus>/<blueprint file without .blueprint.json>`; `module` is `''` for a scenario-level finding. */
export interface MeasuredFinding {
  readonly file: string;
  readonly policy: string;
  readonly module: string;
  readonly severity: Severity;
  readonly reason: string;
}

/** `make-extra/x.blueprint.json` style key of a corpus file. */
export function fileKey(corpus: RealCorpus, file: string): string {
  return `${corpus}/${file.replace(/\.blueprint\.json$/, '')}`;
}

/**
 * One row per policy, file, module and severity (a module with three e-mail addresses is one
 * finding of PRIV-5, as a reviewer reads it); reasons joined.
 */
function merged(rows: readonly MeasuredFinding[]): MeasuredFinding[] {
  const byKey = new Map<string, MeasuredFinding>();
  for (const r of rows) {
    const key = `${r.policy}\u0000${r.file}\u0000${r.module}\u0000${r.severity}`;
    const seen = byKey.get(key);
    byKey.set(key, seen ? { ...seen, reason: `${seen.reason}; ${r.reason}` } : r);
  }
  return [...byKey.values()];
}

/**
 * Evaluates every blueprint of the labelled corpora and returns its findings (severity per failing module,
 * one row per module and severity).
 * Throws when a corpus blueprint does not evaluate: the corpus tests require that every file does.
 */
export function measureCorpora(): MeasuredFinding[] {
  const out: MeasuredFinding[] = [];
  for (const corpus of LABELLED_CORPORA) {
    for (const facts of corpusFacts(corpus)) {
      const file = fileKey(corpus, facts.file);
      const result = evaluateBlueprint(corpusJson(facts.file, corpus), { scenarioId: file });
      if (!result.ok) throw new Error(`${file} does not evaluate: ${result.error.message}`);
      for (const v of result.evaluation.violations) {
        // A scenario-level finding (no failing module, e.g. a scenario setting) is keyed by the empty module id.
        if (v.failing_modules.length === 0)
          out.push({ file, policy: v.policy, module: '', severity: v.severity, reason: v.summary });
        for (const m of v.failing_modules)
          out.push({ file, policy: v.policy, module: m.module_id, severity: m.severity, reason: m.reason });
      }
    }
  }
  return merged(out).sort((a, b) =>
    a.policy === b.policy
      ? a.file === b.file
        ? a.module.localeCompare(b.module, 'en', { numeric: true })
        : a.file.localeCompare(b.file)
      : a.policy.localeCompare(b.policy, 'en', { numeric: true }),
  );
}
