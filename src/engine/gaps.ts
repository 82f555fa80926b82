/** @module engine/gaps: compliance gaps of a scenario (spec §2 `compliance_gaps`: controls not met). */
import type { FrameworkRef } from './frameworks/registry.js';
import { gapLabel } from './frameworks/registry.js';

/**
 * `"<framework> <control|article>"` of every framework row of the violations whose status is
 * `fail` (a `warn` is advisory and opens no gap), de-duplicated and sorted.
 */
export function complianceGaps(
  violations: readonly { status: 'fail' | 'warn'; compliance_frameworks: readonly FrameworkRef[] }[],
): string[] {
  const gaps = new Set<string>();
  for (const v of violations) if (v.status === 'fail') for (const r of v.compliance_frameworks) gaps.add(gapLabel(r));
  return [...gaps].sort();
}
