/** @module engine/score: scenario score and module badges from violations (design notes "Scores and badges"). */
import type { Severity } from './severity.js';
import { SCORE_PENALTY, SEVERITY_RANK } from './severity.js';

/**
 * Scenario score: 100 minus the severity-weighted penalties of its violations, never below 0.
 * A `warn` costs half its severity's penalty (rounded up). Weights: SCORE_PENALTY.
 * @returns an integer 0..100.
 */
export function scenarioScore(violations: readonly { severity: Severity; status: 'fail' | 'warn' }[]): number {
  let penalty = 0;
  for (const v of violations)
    penalty += v.status === 'warn' ? Math.ceil(SCORE_PENALTY[v.severity] / 2) : SCORE_PENALTY[v.severity];
  return Math.max(0, 100 - penalty);
}

/** A module's badge: the worst severity among the violations touching it (`null` when none). */
export function badgeOf(severities: readonly Severity[]): Severity | null {
  let worst: Severity | null = null;
  for (const s of severities) if (worst === null || SEVERITY_RANK[s] > SEVERITY_RANK[worst]) worst = s;
  return worst;
}
