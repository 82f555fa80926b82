/**
 * @module engine/waivers: applies an organization's waivers (issue 17, "Waivers") to one scenario's
 * evaluation. A waived finding stays in the results, marked `waived: { waiver_id, expires_at }`, and
 * counts nowhere: not in the score, the badges, the module summary, the compliance gaps, the
 * `critical` count or the rollup contribution. Pure and synchronous: the caller passes the waivers
 * in force at the evaluation's time (docs/governance.md "Waivers").
 */
import type { FailingModule, ModuleGraph, ModuleSummaryEntry, ScenarioEvaluation, Violation } from './evaluate.js';
import type { Severity } from './severity.js';
import { complianceGaps } from './gaps.js';
import { scenarioScore } from './score.js';
import { SEVERITY_RANK } from './severity.js';

/**
 * A waiver in force, as the engine needs it. With neither `fingerprint` nor `module_id` it waives
 * the policy's whole violation; with `fingerprint` the violation or the one finding of that
 * fingerprint; with `module_id` the policy's findings on that module.
 */
export interface ActiveWaiver {
  readonly waiver_id: string;
  readonly policy: string;
  readonly fingerprint: string | null;
  readonly module_id: string | null;
  /** ISO 8601. */
  readonly expires_at: string;
}

/** The mark on a waived violation or finding. */
export interface WaiverMark {
  readonly waiver_id: string;
  readonly expires_at: string;
}

/** A finding, possibly waived. */
export type WaivableFailingModule = FailingModule & { readonly waived?: WaiverMark };

/** A violation, possibly waived (whole, or some of its findings). */
export type WaivableViolation = Omit<Violation, 'failing_modules'> & {
  readonly failing_modules: readonly WaivableFailingModule[];
  readonly waived?: WaiverMark;
};

/** An evaluation after waivers: the counts exclude what is waived. */
export interface WaivedEvaluation extends Omit<ScenarioEvaluation, 'violations'> {
  readonly violations: readonly WaivableViolation[];
  /** Violations waived as a whole. */
  readonly waived_count: number;
  /** Waived findings per policy code (a waived scenario-level violation counts 1). */
  readonly waived_findings: Readonly<Record<string, number>>;
  /** The earliest `expires_at` among the waivers applied (when the results change by themselves), or null. */
  readonly waivers_valid_until: string | null;
}

/** The first waiver (by earliest expiry) of `candidates` matching, or undefined. */
function earliest(candidates: readonly ActiveWaiver[], match: (w: ActiveWaiver) => boolean): ActiveWaiver | undefined {
  let best: ActiveWaiver | undefined;
  for (const w of candidates) if (match(w) && (best === undefined || w.expires_at < best.expires_at)) best = w;
  return best;
}

const markOf = (w: ActiveWaiver): WaiverMark => ({ waiver_id: w.waiver_id, expires_at: w.expires_at });

/**
 * `ev` with `waivers` applied (see the module docstring). Without waivers touching any violation it
 * returns `ev`'s own arrays with zero counts (no copy). Violations keep their order; a partly
 * waived violation keeps counting, at the worst severity of its remaining findings.
 */
export function applyWaivers(ev: ScenarioEvaluation, waivers: readonly ActiveWaiver[]): WaivedEvaluation {
  const byPolicy = new Map<string, ActiveWaiver[]>();
  for (const w of waivers) (byPolicy.get(w.policy) ?? byPolicy.set(w.policy, []).get(w.policy)!).push(w);
  if (byPolicy.size === 0 || !ev.violations.some((v) => byPolicy.has(v.policy)))
    return { ...ev, waived_count: 0, waived_findings: {}, waivers_valid_until: null };

  const applied: ActiveWaiver[] = [];
  const waivedFindings: Record<string, number> = {};
  const violations: WaivableViolation[] = ev.violations.map((v) => {
    const candidates = byPolicy.get(v.policy);
    if (!candidates) return v;
    const whole = earliest(
      candidates,
      (w) => (w.fingerprint === null && w.module_id === null) || w.fingerprint === v.fingerprint,
    );
    if (whole) {
      applied.push(whole);
      waivedFindings[v.policy] = Math.max(1, v.failing_modules.length);
      const mark = markOf(whole);
      return { ...v, failing_modules: v.failing_modules.map((f) => ({ ...f, waived: mark })), waived: mark };
    }
    let waivedHere = 0;
    const failing = v.failing_modules.map((f): WaivableFailingModule => {
      const w = earliest(
        candidates,
        (c) => c.fingerprint === f.fingerprint || (c.module_id !== null && c.module_id === f.module_id),
      );
      if (!w) return f;
      applied.push(w);
      waivedHere++;
      return { ...f, waived: markOf(w) };
    });
    if (waivedHere === 0) return v;
    waivedFindings[v.policy] = waivedHere;
    const remaining = failing.filter((f) => !f.waived);
    if (remaining.length === 0) {
      // Every finding waived: the violation is waived, under the waiver that lapses first.
      const first = failing.reduce(
        (a, f) => (f.waived!.expires_at < a.expires_at ? f.waived! : a),
        failing[0]!.waived!,
      );
      return { ...v, failing_modules: failing, waived: first };
    }
    let severity: Severity = 'info';
    for (const f of remaining) if (SEVERITY_RANK[f.severity] > SEVERITY_RANK[severity]) severity = f.severity;
    return { ...v, severity, failing_modules: failing };
  });
  return recount(ev, violations, applied, waivedFindings);
}

/** Recomputes everything derived from the counted (unwaived) findings. */
function recount(
  ev: ScenarioEvaluation,
  violations: readonly WaivableViolation[],
  applied: readonly ActiveWaiver[],
  waivedFindings: Readonly<Record<string, number>>,
): WaivedEvaluation {
  const counted = violations.filter((v) => !v.waived);
  // Per module: the worst severity of its counted findings and the codes with a counted finding, in violation order.
  const badges = new Map<string, Severity>();
  const codes = new Map<string, string[]>();
  for (const v of counted)
    for (const f of v.failing_modules) {
      if (f.waived) continue;
      const b = badges.get(f.module_id);
      if (b === undefined || SEVERITY_RANK[f.severity] > SEVERITY_RANK[b]) badges.set(f.module_id, f.severity);
      const list = codes.get(f.module_id) ?? codes.set(f.module_id, []).get(f.module_id)!;
      if (list.at(-1) !== v.policy) list.push(v.policy);
    }
  const withBadges = violations.map((v) => ({
    ...v,
    failing_modules: v.failing_modules.map((f) => ({ ...f, badge: badges.get(f.module_id) ?? f.severity })),
  }));
  const moduleSummary: ModuleSummaryEntry[] = [];
  const nodes: ModuleGraph['nodes'][number][] = [];
  for (const n of ev.module_graph.nodes) {
    const badge = badges.get(n.module_id) ?? null;
    const policies = codes.get(n.module_id) ?? [];
    nodes.push({ ...n, badge, violation_count: policies.length, policies });
    if (badge !== null)
      moduleSummary.push({
        module_id: n.module_id,
        module_name: n.module_name,
        module_type: n.module_type,
        badge,
        violation_count: policies.length,
        policies,
      });
  }
  let validUntil: string | null = null;
  for (const w of applied) if (validUntil === null || w.expires_at < validUntil) validUntil = w.expires_at;
  const waivedCount = violations.length - counted.length;
  return {
    ...ev,
    score: scenarioScore(counted),
    violations: withBadges,
    module_summary: moduleSummary,
    passing_count: ev.evaluated_codes.length - counted.length - waivedCount,
    failing_count: counted.length,
    compliance_gaps: complianceGaps(counted),
    critical: counted.filter((v) => v.severity === 'critical').length,
    module_graph: { nodes, edges: ev.module_graph.edges },
    waived_count: waivedCount,
    waived_findings: waivedFindings,
    waivers_valid_until: validUntil,
  };
}
