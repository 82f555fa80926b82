/**
 * @module cli/scan/baseline: `gov scan --write-baseline FILE` records the fingerprints of today's
 * findings; `gov scan --baseline FILE` then reports only findings that are not in it (issue 17:
 * "reports only findings whose fingerprints are not in the baseline"), the way Semgrep's and
 * Checkov's baselines let a team adopt the scanner on an existing fleet and fail CI on new
 * findings only. Fingerprints are the engine's (policy, scenario, module pointer) hashes
 * (engine/fingerprint), so a finding keeps its fingerprint across edits of other modules; the
 * scenario is the file path relative to the working directory, so run both from the same place.
 * A baselined finding stays in the scores and badges (they describe the blueprint); only what is
 * reported, and the exit code, change.
 */
import { readFileSync } from 'node:fs';
import type { Violation } from '../../engine/index.js';
import type { FileResult } from './file-result.js';

/** The baseline file (JSON). */
export interface Baseline {
  /** Format version: 1. */
  readonly version: 1;
  /** The tool and version that wrote it (informational). */
  readonly generated_by: string;
  /** Fingerprints of the baselined findings, sorted. */
  readonly fingerprints: readonly string[];
}

/** A baseline file that cannot be used (exit 2). */
export class BaselineError extends Error {
  override readonly name = 'BaselineError';
}

/**
 * The fingerprints a violation is reported by: one per failing module, or the violation's own
 * when it names no module (a scenario-level finding).
 */
function fingerprintsOf(v: Violation): readonly string[] {
  return v.failing_modules.length > 0 ? v.failing_modules.map((f) => f.fingerprint) : [v.fingerprint];
}

/** The baseline of `results`: every finding of every evaluated file. */
export function baselineOf(results: readonly FileResult[], generatedBy: string): Baseline {
  const all = new Set<string>();
  for (const r of results)
    if (r.kind === 'evaluated') for (const v of r.evaluation.violations) for (const f of fingerprintsOf(v)) all.add(f);
  return { version: 1, generated_by: generatedBy, fingerprints: [...all].sort() };
}

/** Reads a baseline file. @throws BaselineError naming the file and what is wrong. */
export function readBaseline(path: string): Baseline {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new BaselineError(`baseline ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const b = parsed as Partial<Baseline> | null;
  if (
    b === null ||
    typeof b !== 'object' ||
    b.version !== 1 ||
    !Array.isArray(b.fingerprints) ||
    !b.fingerprints.every((f) => typeof f === 'string')
  )
    throw new BaselineError(`baseline ${path}: not a gov baseline (version 1 with a "fingerprints" array)`);
  return b as Baseline;
}

/**
 * `results` without the baselined findings: a violation keeps only its modules whose fingerprint is
 * new, and goes when none is left. @returns the filtered results and how many findings were baselined.
 */
export function withoutBaselined(
  results: readonly FileResult[],
  baseline: Baseline,
): { readonly results: FileResult[]; readonly baselined: number } {
  const known = new Set(baseline.fingerprints);
  let baselined = 0;
  const filtered = results.map((r): FileResult => {
    if (r.kind !== 'evaluated') return r;
    const violations: Violation[] = [];
    for (const v of r.evaluation.violations) {
      if (v.failing_modules.length === 0) {
        if (known.has(v.fingerprint)) baselined++;
        else violations.push(v);
        continue;
      }
      const fresh = v.failing_modules.filter((f) => !known.has(f.fingerprint));
      baselined += v.failing_modules.length - fresh.length;
      if (fresh.length === v.failing_modules.length) violations.push(v);
      else if (fresh.length > 0) violations.push({ ...v, failing_modules: fresh });
    }
    return { ...r, evaluation: { ...r.evaluation, violations } };
  });
  return { results: filtered, baselined };
}
