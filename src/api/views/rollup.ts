/** @module api/views/rollup: `GET /organization/rollup` (spec §4 "Organization-wide rollup"; design notes shape). */
import type { RollupRecord } from '../../model/records.js';
import { POLICIES, POLICY_BY_CODE, gapLabel, refId } from '../../engine/index.js';

/** Controls per framework that the catalog cites (the denominators of framework coverage). */
const FRAMEWORK_CONTROLS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const map = new Map<string, Set<string>>();
  for (const p of POLICIES)
    for (const r of p.compliance_frameworks)
      (map.get(r.framework) ?? map.set(r.framework, new Set()).get(r.framework)!).add(refId(r));
  return map;
})();

/** The API view (`GET /organization/rollup`): score, totals, top violations, framework coverage. */
export function rollupView(r: RollupRecord): Record<string, unknown> {
  const top = Object.entries(r.policies)
    .sort((a, b) => b[1].scenarios - a[1].scenarios || b[1].count - a[1].count || a[0].localeCompare(b[0]))
    .slice(0, 10)
    .map(([code, v]) => ({
      policy: code,
      title: POLICY_BY_CODE.get(code)?.title ?? code,
      severity: POLICY_BY_CODE.get(code)?.severity ?? 'medium',
      count: v.count,
      scenarios: v.scenarios,
    }));
  const coverage = [...FRAMEWORK_CONTROLS].map(([framework, controls]) => {
    let met = 0;
    for (const id of controls)
      if (
        !r.gaps[
          gapLabel(
            framework === 'GDPR' || framework === 'EU AI Act'
              ? { framework: framework as never, article: id }
              : { framework: framework as never, control: id },
          )
        ]
      )
        met++;
    return {
      framework,
      controls_total: controls.size,
      controls_met: met,
      coverage: Math.round((met / controls.size) * 1000) / 1000,
    };
  });
  return {
    score: r.scenarios_evaluated === 0 ? null : Math.round((r.score_sum / r.scenarios_evaluated) * 10) / 10,
    scenarios_total: r.scenarios_total,
    scenarios_evaluated: r.scenarios_evaluated,
    violations_total: r.violations_total,
    critical_total: r.critical_total,
    top_violations: top,
    framework_coverage: coverage,
    // Issue 17: waived findings count nowhere above; here apart, with the scenarios waiving each policy.
    waived_total: r.waived_total ?? 0,
    waived: Object.entries(r.waived ?? {})
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([policy, scenarios]) => ({ policy, scenarios })),
    updated_at: r.updated_at,
  };
}
