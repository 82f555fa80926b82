/** @module engine/severity: the severity scale, its order and the score weights (design notes "Scores and badges"). */

/** Severity scale, worst first: `critical > high > medium > low > info`. */
export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';

/** Rank of each severity; higher is worse. */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

/** Severities worst first. */
export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

/** Fallback severity when a context gives none (spec §2 Violation: "may fall back to `medium`"). */
export const FALLBACK_SEVERITY: Severity = 'medium';

/**
 * Score penalty per violation, in points off 100 (design notes "Scores and badges"). A `warn`
 * violation costs half, rounded up. Documented in docs/scoring.md; same for every organization.
 */
export const SCORE_PENALTY: Readonly<Record<Severity, number>> = { critical: 25, high: 15, medium: 8, low: 3, info: 1 };

/** The worse of two severities. */
export function worse(a: Severity, b: Severity): Severity {
  return SEVERITY_RANK[a] >= SEVERITY_RANK[b] ? a : b;
}
