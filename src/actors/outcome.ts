/** @module actors/outcome: what a worker derives from an evaluation besides the response bodies (api/views): metrics and the rollup contribution. */
import type { WaivedEvaluation } from '../engine/waivers.js';
import type { RollupContribution, SeverityName } from '../model/records.js';
import { SEVERITIES, SEVERITY_RANK } from '../engine/severity.js';
import type { TaskStats } from './worker-protocol.js';

/** Violation counts by `category|severity` for metrics (`gov_violations_total`); waived violations are left out (issue 17). */
export function violationStats(ev: WaivedEvaluation, evaluateMs: number): TaskStats {
  const violations: Record<string, number> = {};
  for (const v of ev.violations)
    if (!v.waived) violations[`${v.category}|${v.severity}`] = (violations[`${v.category}|${v.severity}`] ?? 0) + 1;
  return { evaluateMs, modules: ev.module_count, violations, startedAtMs: 0 };
}

/**
 * The scenario's rollup contribution: score, counts, findings per violated policy, compliance gaps,
 * the worst badge and the violations by severity (issue 18), all of counted (unwaived) violations;
 * waived findings per policy apart (issue 17).
 */
export function contribution(ev: WaivedEvaluation): RollupContribution {
  const policies: Record<string, number> = {};
  const severities = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<SeverityName, number>;
  let worst: SeverityName | null = null;
  for (const v of ev.violations) {
    if (v.waived) continue;
    policies[v.policy] = Math.max(1, v.failing_modules.filter((f) => !f.waived).length);
    severities[v.severity]++;
    if (worst === null || SEVERITY_RANK[v.severity] > SEVERITY_RANK[worst]) worst = v.severity;
  }
  const base = {
    score: ev.score,
    violations: ev.failing_count,
    critical: ev.critical,
    policies,
    gaps: ev.compliance_gaps,
    badge: worst ?? ('clean' as const),
    severities,
  };
  return ev.waived_count === 0 && Object.keys(ev.waived_findings).length === 0
    ? base
    : { ...base, waived: ev.waived_findings };
}
