/**
 * @module engine/governance/plan: which policies an evaluation runs, with which parameters and
 * severity (issue 17, organization settings): the catalog, then the organization's extra policies;
 * disabled codes and `include` / `exclude` left out; parameters resolved; severity overrides noted.
 */
import type { Finding, Policy, PolicyOutcome, PolicyParams } from '../policies/types.js';
import type { Severity } from '../severity.js';
import type { GovernanceSettingsBody } from './settings.js';
import { POLICIES } from '../policies/catalog.js';
import { defaultParams, resolveParams } from '../policies/params.js';

/** One policy to run: its resolved parameters and the organization's severity for it (`null`: the catalog's). */
export interface PlannedPolicy {
  readonly policy: Policy;
  readonly params: PolicyParams;
  readonly severity: Severity | null;
}

/** What selects and tunes the policies of one evaluation (the matching members of `EvaluateOptions`). */
export interface PlanOptions {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly settings?: GovernanceSettingsBody;
  readonly extraPolicies?: readonly Policy[];
}

/** The catalog at its defaults, built once: the plan of every evaluation without settings (no allocation per run). */
const DEFAULT_PLAN: readonly PlannedPolicy[] = POLICIES.map((policy) => ({
  policy,
  params: defaultParams(policy),
  severity: null,
}));

/** The policies an evaluation runs, in order: the catalog, then `extraPolicies`. */
export function planPolicies(options: PlanOptions): readonly PlannedPolicy[] {
  const { include, exclude, settings, extraPolicies } = options;
  if (!include && !exclude && !settings && !extraPolicies) return DEFAULT_PLAN;
  const only = include ? new Set(include) : null;
  const skip = new Set([...(exclude ?? []), ...(settings?.disabled_policies ?? [])]);
  const overrides = settings?.severity_overrides;
  const values = settings?.parameters;
  const plan: PlannedPolicy[] = [];
  for (const policy of extraPolicies ? [...POLICIES, ...extraPolicies] : POLICIES) {
    if ((only && !only.has(policy.code)) || skip.has(policy.code)) continue;
    plan.push({ policy, params: resolveParams(policy, values), severity: overrides?.[policy.code] ?? null });
  }
  return plan;
}

/**
 * An outcome at the organization's severity: every finding's severity, and the scenario-level one,
 * replaced by `severity` (contextual severities included: the organization's word is final). The
 * reachability cap still applies afterwards (`evaluate.ts`), so a finding on a route that cannot run
 * stays low.
 */
export function overrideSeverity(outcome: PolicyOutcome, severity: Severity): PolicyOutcome {
  // Fields named, not spread, for the findings: one shape per array keeps property access monomorphic.
  const findings = outcome.findings.map((f): Finding =>
    // A finding with an evidence path or risk row keeps them; its row still says what the model would have set.
    f.path !== undefined || f.risk !== undefined
      ? { ...f, severity }
      : f.evidence
        ? { moduleId: f.moduleId, reason: f.reason, severity, evidence: f.evidence }
        : { moduleId: f.moduleId, reason: f.reason, severity },
  );
  return { ...outcome, findings, severity };
}
