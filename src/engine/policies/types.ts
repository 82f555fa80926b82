/** @module engine/policies/types: the shape of one policy file and of what it reports. */
import type { Analysis } from '../analysis.js';
import type { FrameworkRef } from '../frameworks/registry.js';
import type { Severity } from '../severity.js';
import type { EvidenceStep, RiskRow } from '../risk/types.js';

/** Policy categories (issue 3): security, data integrity, architecture, privacy, AI use, operations. */
export type PolicyCategory = 'SEC' | 'DI' | 'ARC' | 'PRIV' | 'AI' | 'OPS';

/** Human-readable category names, used by the catalog and the docs. */
export const CATEGORY_NAMES: Readonly<Record<PolicyCategory, string>> = {
  SEC: 'security',
  DI: 'data integrity and reliability',
  ARC: 'architecture and maintainability',
  PRIV: 'personal data and privacy',
  AI: 'AI and LLM use',
  OPS: 'operations and monitoring',
};

/** Remediation effort (spec §2 Remediation: `estimated_effort`, `low` occurs). */
export type Effort = 'low' | 'medium' | 'high';

/** One module-level finding of a policy. */
export interface Finding {
  readonly moduleId: string;
  /** Specific reason for this module ("header `Authorization` holds a literal Meta Graph access token"). */
  readonly reason: string;
  /** Contextual severity for this module; the policy's catalog severity when absent. */
  readonly severity?: Severity;
  /** JSON Pointer of the evidence in the blueprint, and a redacted excerpt of the value. */
  readonly evidence?: { readonly pointer: string; readonly value?: string };
  /**
   * Every place of the one thing this finding reports, `evidence.pointer` first, when it is in more than
   * one (issue 32: one literal secret is one finding with all its locations). The finding is reported
   * on `moduleId` (the first place); its reason names the others and the remediation lists every module.
   */
  readonly locations?: readonly FindingLocation[];
  /**
   * Evidence path (issue 32, CodeQL path-problem style): the source, the modules the data passes
   * through and the sink (this module), in data-flow order. Absent for findings that are not about a
   * flow (a setting, a literal).
   */
  readonly path?: readonly EvidenceStep[];
  /** The risk-model row (`risk/model.ts`) that set `severity`, when the policy uses the model. */
  readonly risk?: RiskRow;
}

/** One place of a finding: the module it belongs to (the module a scenario-level string describes) and the JSON Pointer. */
export interface FindingLocation {
  readonly moduleId: string;
  readonly pointer: string;
}

/** What a failing policy reports. `findings` may be empty for scenario-level settings. */
export interface PolicyOutcome {
  readonly status: 'fail' | 'warn';
  readonly findings: readonly Finding[];
  /** Scenario-level severity when there are no findings (e.g. a setting); defaults to the catalog severity. */
  readonly severity?: Severity;
  /** One-line summary of the violation. */
  readonly summary: string;
  /** Scenario-level evidence (settings), e.g. `/metadata/scenario/dlq`. */
  readonly evidence?: { readonly pointer: string; readonly value?: string };
}

/** Remediation template of a policy. */
export interface RemediationTemplate {
  readonly effort: Effort;
  /** Ordered steps for this violation, specific to its modules and fields; Markdown emphasis allowed. */
  steps(outcome: PolicyOutcome, analysis: Analysis): string[];
}

/**
 * A parameter a policy declares (issue 17, organization settings): an organization sets its value in
 * the settings body's `parameters` by `name`; `validateSettings` checks it against these bounds and
 * the engine passes the resolved value (the default when unset) to `evaluate`. A name is declared by
 * exactly one policy of the catalog (a test keeps it so).
 */
export type PolicyParameter = IntegerParameter | StringListParameter;

/** An integer parameter with inclusive bounds. */
export interface IntegerParameter {
  readonly name: string;
  readonly type: 'integer';
  /** What the value means, with its unit; shown in the policy docs and the effective catalog. */
  readonly description: string;
  readonly default: number;
  readonly minimum: number;
  readonly maximum: number;
}

/** A list of strings, each matching `itemPattern` (a JSON Schema `pattern`), at most `maxItems`, no duplicates. */
export interface StringListParameter {
  readonly name: string;
  readonly type: 'string-list';
  readonly description: string;
  readonly default: readonly string[];
  readonly maxItems: number;
  /** ECMAScript regular expression source every item must match (anchored). */
  readonly itemPattern: string;
  /** Longest item, in characters. */
  readonly itemMaxLength: number;
}

/** Resolved values of one policy's declared parameters, by name (defaults merged); `{}` when it declares none. */
export type PolicyParams = Readonly<Record<string, number | readonly string[]>>;

/** One policy (one file under src/engine/policies/<category>/). Codes are stable and never reused. */
export interface Policy {
  readonly code: string;
  readonly title: string;
  readonly category: PolicyCategory;
  /** Catalog severity: badge colours and filters use it (spec §2 Policy catalog entry). */
  readonly severity: Severity;
  /**
   * Where the risk lies. `run` (default): in what the scenario does when it runs, so a finding on a
   * module that cannot run as exported is capped at low (`reachability.ts`). `artefact`: in the
   * exported blueprint itself (a hard-coded secret or personal datum anyone holding the file can
   * read), whether or not the module ever runs; never capped.
   */
  readonly subject?: 'run' | 'artefact';
  /** One-paragraph description shown in violations. */
  readonly description: string;
  /** Why the rule exists, with its sources. */
  readonly rationale: string;
  readonly compliance_frameworks: readonly FrameworkRef[];
  readonly remediation: RemediationTemplate;
  /** Avoid / Prefer examples for the docs page (short blueprint fragments or prose). */
  readonly examples: { readonly avoid: string; readonly prefer: string };
  /** Parameters an organization may set for this policy (issue 17); none when absent. */
  readonly parameters?: readonly PolicyParameter[];
  /**
   * Pure check: `null` when the scenario passes. `params` holds the resolved value of every declared
   * parameter (read them with `paramValue`); policies without parameters ignore it.
   */
  evaluate(analysis: Analysis, params: PolicyParams): PolicyOutcome | null;
}
