/**
 * @module api/views/scenario-results: `GET /scenarios/{id}/results` (spec §2 "Scenario results") and
 * the scenario summary of the status view. The results are rendered once, in the worker, and
 * stored and served as bytes.
 */
import type { WaivedEvaluation } from '../../engine/waivers.js';
import type { EvaluationRecord, ScenarioSummary } from '../../model/records.js';

/** The governance context an evaluation ran with (issue 17): settings version, rules revision, catalog revision. */
export type GovernancePin = NonNullable<EvaluationRecord['governance']>;

/**
 * `data` of GET /scenarios/{id}/results (`name` repeats `scenario_name` for results/fetch). Waived
 * violations stay in `violations`, marked `waived`; `waived_count` counts them and
 * `waivers_valid_until` is when the first applied waiver lapses (issue 17).
 */
export function renderResults(
  scenarioId: string,
  ev: WaivedEvaluation,
  evaluationId: string | null,
  evaluatedAt: string,
  governance: GovernancePin,
): string {
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
    waived_count: ev.waived_count,
    waivers_valid_until: ev.waivers_valid_until,
    governance,
    evaluation_id: evaluationId,
    evaluated_at: evaluatedAt,
  });
}

/** `data` of GET /scenarios/{id}/results for a stored scenario never evaluated. */
export function notEvaluatedView(scenarioId: string, name: string): Record<string, unknown> {
  return {
    scenario_id: scenarioId,
    scenario_name: name,
    name,
    evaluation_status: 'not_evaluated',
    violations: [],
    module_summary: [],
    evaluated_codes: [],
    passing_count: 0,
    failing_count: 0,
  };
}

/** Scenario summary entry of the evaluation status view (spec §2). */
export function summarize(scenarioId: string, ev: WaivedEvaluation): ScenarioSummary {
  return {
    id: scenarioId,
    name: ev.scenario_name,
    score: ev.score,
    violations: ev.failing_count,
    critical: ev.critical,
    compliance_gaps: ev.compliance_gaps,
    module_violations: ev.module_summary.map((m) => ({
      module_id: m.module_id,
      module_name: m.module_name,
      module_type: m.module_type,
      badge: m.badge,
      violation_count: m.violation_count,
      policies: m.policies,
    })),
  };
}

/** Summary of a scenario that failed alone (spec §3 rule 1: the batch still completes). */
export function failedSummary(id: string, name: string, error: string): ScenarioSummary {
  return { id, name, score: 0, violations: 0, critical: 0, compliance_gaps: [], module_violations: [], error };
}
