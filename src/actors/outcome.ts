/** @module actors/outcome: what a worker derives from an evaluation besides the response bodies (api/views): metrics and the rollup contribution. */
import type { ScenarioEvaluation } from '../engine/index.js';
import type { RollupContribution } from '../model/records.js';
import type { TaskStats } from './worker-protocol.js';

/** Violation counts by `category|severity` for metrics. */
export function violationStats(ev: ScenarioEvaluation, evaluateMs: number): TaskStats {
  const violations: Record<string, number> = {};
  for (const v of ev.violations)
    violations[`${v.category}|${v.severity}`] = (violations[`${v.category}|${v.severity}`] ?? 0) + 1;
  return { evaluateMs, modules: ev.module_count, violations, startedAtMs: 0 };
}

/** The scenario's rollup contribution: score, counts, findings per violated policy, compliance gaps. */
export function contribution(ev: ScenarioEvaluation): RollupContribution {
  const policies: Record<string, number> = {};
  for (const v of ev.violations) policies[v.policy] = Math.max(1, v.failing_modules.length);
  return {
    score: ev.score,
    violations: ev.violations.length,
    critical: ev.critical,
    policies,
    gaps: ev.compliance_gaps,
  };
}
