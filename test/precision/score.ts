/**
 * @module test/precision/score: the engine's findings on the corpora judged against the labelled
 * set: precision per policy and severity, and every way the set and the engine disagree.
 *
 * Targets (issue 14, "Prove it"): every high and critical finding labelled `true`; no policy below
 * 90% precision at any severity; a finding labelled `false` never reported; a finding labelled
 * `true` never lost; no `ok` look-alike reported; at least one `ok` case per policy.
 */
import { createHash } from 'node:crypto';
import type { Severity } from '../../src/engine/index.js';
import { findingKey, type FindingLabel, type PolicyLabels, type Verdict } from './labels.js';
import type { MeasuredFinding } from './measure.js';

/** Precision target per policy and severity (issue 14). */
export const PRECISION_TARGET = 0.9;

/** Severities every finding of which must be labelled (issue 14: "every finding of severity high or critical"). */
export const ALWAYS_LABELLED: ReadonlySet<Severity> = new Set(['critical', 'high']);

/**
 * Findings labelled per policy and severity below high: at least this many (or all when fewer are
 * reported), picked in a fixed pseudo-random order (`sampleOrder`) so that the sample is not the
 * reviewer's choice.
 */
export const SAMPLE_PER_SEVERITY = 3;

/** Counts at one severity: reported findings, and the labelled ones by verdict. */
export interface SeverityCounts {
  reported: number;
  labelled: number;
  true: number;
  overstated: number;
  false: number;
}

/** One policy's measured precision. `precision` is `null` when none of its findings is labelled. */
export interface PolicyPrecision {
  readonly policy: string;
  readonly bySeverity: Partial<Record<Severity, SeverityCounts>>;
  readonly reported: number;
  readonly labelled: number;
  readonly true: number;
  readonly precision: number | null;
  readonly okCases: number;
  /** Findings labelled overstated or false that are no longer reported at that severity (fixed; kept as regression guards). */
  readonly fixed: number;
}

/** A reported finding together with its label, when it has one. */
export interface JudgedFinding extends MeasuredFinding {
  readonly label?: FindingLabel;
}

/** Every disagreement between the engine and the labelled set; all empty when the targets are met. */
export interface Problems {
  /** High or critical findings without a label. */
  readonly unlabelled: readonly MeasuredFinding[];
  /** High or critical findings labelled `overstated` or `false`. */
  readonly wrongHigh: readonly JudgedFinding[];
  /** Findings labelled `false` that are reported (at any severity). */
  readonly falseReported: readonly JudgedFinding[];
  /** Labelled `true` but no longer reported at that severity. */
  readonly trueLost: readonly (FindingLabel & { readonly policy: string; readonly now: readonly MeasuredFinding[] })[];
  /** `ok` look-alikes the policy reports. */
  readonly okReported: readonly (MeasuredFinding & { readonly okReason: string })[];
  /** Policies of the catalog without an `ok` case. */
  readonly withoutOk: readonly string[];
  /** Policy and severity pairs below the target. */
  readonly belowTarget: readonly {
    readonly policy: string;
    readonly severity: Severity;
    readonly precision: number;
    readonly labelled: number;
  }[];
  /** Policy and severity pairs below high with fewer labels than the sample asks, with the next candidates. */
  readonly undersampled: readonly {
    readonly policy: string;
    readonly severity: Severity;
    readonly labelled: number;
    readonly needed: number;
    readonly candidates: readonly MeasuredFinding[];
  }[];
  /** Label files for a code the catalog does not have. */
  readonly unknownPolicies: readonly string[];
}

/** The whole judgement. */
export interface Score {
  readonly policies: readonly PolicyPrecision[];
  readonly findings: readonly JudgedFinding[];
  readonly problems: Problems;
}

const empty = (): SeverityCounts => ({ reported: 0, labelled: 0, true: 0, overstated: 0, false: 0 });

/**
 * Judges `measured` (from `measureCorpora`) against `labels` for the policies in `catalog` (codes).
 * Pure; O(findings + labels).
 */
export function score(
  measured: readonly MeasuredFinding[],
  labels: ReadonlyMap<string, PolicyLabels>,
  catalog: readonly string[],
): Score {
  const labelByKey = new Map<string, FindingLabel>();
  for (const [code, l] of labels)
    for (const f of l.findings) labelByKey.set(findingKey(code, f.file, f.module, f.severity), f);
  const reportedKeys = new Set<string>();
  const byModule = new Map<string, MeasuredFinding[]>();
  const judged: JudgedFinding[] = measured.map((m) => {
    reportedKeys.add(findingKey(m.policy, m.file, m.module, m.severity));
    const at = `${m.policy}\u0000${m.file}\u0000${m.module}`;
    byModule.set(at, [...(byModule.get(at) ?? []), m]);
    const label = labelByKey.get(findingKey(m.policy, m.file, m.module, m.severity));
    return label ? { ...m, label } : m;
  });

  const counts = new Map<string, Partial<Record<Severity, SeverityCounts>>>();
  for (const f of judged) {
    const bySeverity = counts.get(f.policy) ?? {};
    counts.set(f.policy, bySeverity);
    const c = (bySeverity[f.severity] ??= empty());
    c.reported++;
    if (f.label) {
      c.labelled++;
      c[f.label.verdict satisfies Verdict]++;
    }
  }

  const policies: PolicyPrecision[] = catalog.map((policy) => {
    const bySeverity = counts.get(policy) ?? {};
    const all = Object.values(bySeverity);
    const labelled = all.reduce((n, c) => n + c.labelled, 0);
    const trueCount = all.reduce((n, c) => n + c.true, 0);
    const fixed = (labels.get(policy)?.findings ?? []).filter(
      (f) => f.verdict !== 'true' && !reportedKeys.has(findingKey(policy, f.file, f.module, f.severity)),
    ).length;
    return {
      policy,
      bySeverity,
      reported: all.reduce((n, c) => n + c.reported, 0),
      labelled,
      true: trueCount,
      precision: labelled === 0 ? null : trueCount / labelled,
      okCases: labels.get(policy)?.ok.length ?? 0,
      fixed,
    };
  });

  const trueLost: Problems['trueLost'][number][] = [];
  for (const [code, l] of labels) {
    for (const f of l.findings) {
      if (f.verdict === 'true' && !reportedKeys.has(findingKey(code, f.file, f.module, f.severity)))
        trueLost.push({ ...f, policy: code, now: byModule.get(`${code}\u0000${f.file}\u0000${f.module}`) ?? [] });
    }
  }
  const okReported: Problems['okReported'][number][] = [];
  for (const [code, l] of labels) {
    for (const o of l.ok) {
      for (const m of measured)
        if (m.policy === code && m.file === o.file && (o.module === undefined || m.module === o.module))
          okReported.push({ ...m, okReason: o.reason });
    }
  }
  const belowTarget: Problems['belowTarget'][number][] = [];
  for (const p of policies) {
    for (const [severity, c] of Object.entries(p.bySeverity) as [Severity, SeverityCounts][]) {
      if (c.labelled > 0 && c.true / c.labelled < PRECISION_TARGET)
        belowTarget.push({ policy: p.policy, severity, precision: c.true / c.labelled, labelled: c.labelled });
    }
  }
  const undersampled: Problems['undersampled'][number][] = [];
  for (const p of policies) {
    for (const [severity, c] of Object.entries(p.bySeverity) as [Severity, SeverityCounts][]) {
      const needed = Math.min(SAMPLE_PER_SEVERITY, c.reported);
      if (ALWAYS_LABELLED.has(severity) || c.labelled >= needed) continue;
      const candidates = sampleOrder(
        judged.filter((f) => f.policy === p.policy && f.severity === severity && !f.label),
      ).slice(0, needed - c.labelled);
      undersampled.push({ policy: p.policy, severity, labelled: c.labelled, needed, candidates });
    }
  }
  const known = new Set(catalog);
  return {
    policies,
    findings: judged,
    problems: {
      unlabelled: judged.filter((f) => ALWAYS_LABELLED.has(f.severity) && !f.label),
      wrongHigh: judged.filter((f) => ALWAYS_LABELLED.has(f.severity) && f.label && f.label.verdict !== 'true'),
      falseReported: judged.filter((f) => f.label?.verdict === 'false'),
      trueLost,
      okReported,
      withoutOk: policies.filter((p) => p.okCases === 0).map((p) => p.policy),
      belowTarget,
      undersampled,
      unknownPolicies: [...labels.keys()].filter((c) => !known.has(c)),
    },
  };
}

/** Total of precision over all policies: labelled-true ÷ labelled, or `null` when nothing is labelled. */
export function overallPrecision(s: Score): { labelled: number; true: number; precision: number | null } {
  const labelled = s.policies.reduce((n, p) => n + p.labelled, 0);
  const t = s.policies.reduce((n, p) => n + p.true, 0);
  return { labelled, true: t, precision: labelled === 0 ? null : t / labelled };
}

/** Findings in a fixed pseudo-random order (by SHA-256 of policy, file, module and severity). */
export function sampleOrder<T extends MeasuredFinding>(findings: readonly T[]): T[] {
  const rank = (f: MeasuredFinding) =>
    createHash('sha256')
      .update(findingKey(f.policy, f.file, f.module, f.severity))
      .digest('hex');
  return findings
    .map((f) => [rank(f), f] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([, f]) => f);
}
