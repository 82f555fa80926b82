/** @module api/views/remediation: `GET /violations/{scenario_id}:{policy_code}/remediation` (spec §2 "Remediation"), rendered in the worker. */
import type { ScenarioEvaluation } from '../../engine/index.js';
import type { RemediationMap } from '../../model/records.js';

/** Remediation `data` JSON per violated policy (null when its generation failed). */
export function renderRemediation(ev: ScenarioEvaluation): RemediationMap {
  const out: Record<string, string | null> = {};
  for (const [code, r] of Object.entries(ev.remediation)) {
    out[code] =
      r === null
        ? null
        : JSON.stringify({
            policy: code,
            steps: r.steps,
            severity: r.severity,
            estimated_effort: r.estimated_effort,
            compliance_frameworks: r.compliance_frameworks,
          });
  }
  return out;
}
