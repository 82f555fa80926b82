/** @module engine/remediation: remediation of one violation from its policy's template (spec §2 Remediation). */
import type { Analysis } from './analysis.js';
import type { FrameworkRef } from './frameworks/registry.js';
import type { Policy, PolicyOutcome } from './policies/types.js';
import type { Severity } from './severity.js';

/** Remediation of one violation (spec §2 Remediation). */
export interface Remediation {
  readonly policy: string;
  /** Ordered steps, specific to the failing modules and fields; Markdown emphasis allowed. */
  readonly steps: readonly string[];
  readonly severity: Severity;
  readonly estimated_effort: 'low' | 'medium' | 'high';
  readonly compliance_frameworks: readonly FrameworkRef[];
}

/** Builds the remediation of a violation; `null` when the template fails or yields no step (the API then answers 500 `Remediation generation failed`). */
export function buildRemediation(
  policy: Policy,
  outcome: PolicyOutcome,
  analysis: Analysis,
  severity: Severity,
): Remediation | null {
  try {
    const steps = policy.remediation.steps(outcome, analysis);
    if (steps.length === 0) return null;
    return {
      policy: policy.code,
      steps,
      severity,
      estimated_effort: policy.remediation.effort,
      compliance_frameworks: policy.compliance_frameworks,
    };
  } catch {
    return null;
  }
}
