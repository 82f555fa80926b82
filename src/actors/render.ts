/** @module actors/render: engine output → the API's pre-rendered JSON (runs in workers). */
import type { ScenarioEvaluation } from '../engine/index.js';
import type { RollupContribution, ScenarioSummary } from '../store/records.js';
import type { TaskStats } from './worker-protocol.js';

/** `data` of GET /scenarios/{id}/results (spec §2 Scenario results; `name` repeats `scenario_name` for results/fetch). */
export function renderResults(scenarioId: string, ev: ScenarioEvaluation, evaluationId: string | null, evaluatedAt: string): string {
  return JSON.stringify({
    scenario_id: scenarioId,
    scenario_name: ev.scenario_name,
    name: ev.scenario_name,
    evaluation_status: 'evaluated',
    score: ev.score,
    violations: ev.violations,
    module_summary: ev.module_summary,
    evaluated_codes: ev.evaluated_codes,
    passing_count: ev.passing_count,
    failing_count: ev.failing_count,
    compliance_gaps: ev.compliance_gaps,
    evaluation_id: evaluationId,
    evaluated_at: evaluatedAt,
  });
}

/** Scenario summary entry of the evaluation status (spec §2). */
export function summarize(scenarioId: string, ev: ScenarioEvaluation): ScenarioSummary {
  return {
    id: scenarioId,
    name: ev.scenario_name,
    score: ev.score,
    violations: ev.violations.length,
    critical: ev.critical,
    compliance_gaps: ev.compliance_gaps,
    module_violations: ev.module_summary.map((m) => ({
      module_id: m.module_id, module_name: m.module_name, module_type: m.module_type, badge: m.badge, violation_count: m.violation_count, policies: m.policies,
    })),
  };
}

/** Remediation `data` per violated policy (spec §2 Remediation). */
export function renderRemediation(ev: ScenarioEvaluation): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [code, r] of Object.entries(ev.remediation)) {
    out[code] = r === null ? null : JSON.stringify({ policy: code, steps: r.steps, severity: r.severity, estimated_effort: r.estimated_effort, compliance_frameworks: r.compliance_frameworks });
  }
  return out;
}

/** Violation counts by `category|severity` for metrics. */
export function violationStats(ev: ScenarioEvaluation, evaluateMs: number): TaskStats {
  const violations: Record<string, number> = {};
  for (const v of ev.violations) violations[`${v.category}|${v.severity}`] = (violations[`${v.category}|${v.severity}`] ?? 0) + 1;
  return { evaluateMs, modules: ev.module_count, violations, startedAtMs: 0 };
}

/** The scenario's rollup contribution: score, counts, findings per violated policy, compliance gaps. */
export function contribution(ev: ScenarioEvaluation): RollupContribution {
  const policies: Record<string, number> = {};
  for (const v of ev.violations) policies[v.policy] = Math.max(1, v.failing_modules.length);
  return { score: ev.score, violations: ev.violations.length, critical: ev.critical, policies, gaps: ev.compliance_gaps };
}
