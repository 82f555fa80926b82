/** @module api/views/inline: `POST /evaluate/inline` (design notes "Inline result"), rendered in the worker. */
import type { ScenarioEvaluation } from '../../engine/index.js';
import type { GovernancePin } from './scenario-results.js';

/** `data` of an inline evaluation; `remediation` only when the request asked for it; `governance`: the settings version, rules revision and catalog revision it ran with. */
export function inlineView(
  ev: ScenarioEvaluation,
  includeRemediation: boolean,
  governance: GovernancePin,
): Record<string, unknown> {
  const data: Record<string, unknown> = {
    scenario: { name: ev.scenario_name, score: ev.score, evaluation_status: 'evaluated' },
    violations: ev.violations,
    module_graph: ev.module_graph,
    evaluated_codes: ev.evaluated_codes,
    passing_count: ev.passing_count,
    failing_count: ev.failing_count,
    compliance_gaps: ev.compliance_gaps,
    governance,
  };
  if (includeRemediation) {
    const remediation: Record<string, unknown> = {};
    for (const [code, r] of Object.entries(ev.remediation))
      remediation[code] = r && {
        steps: r.steps,
        severity: r.severity,
        estimated_effort: r.estimated_effort,
        compliance_frameworks: r.compliance_frameworks,
      };
    data['remediation'] = remediation;
  }
  return data;
}
