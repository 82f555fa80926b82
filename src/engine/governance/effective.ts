/**
 * @module engine/governance/effective: the catalog as an organization's settings make it (issue 17):
 * per built-in and custom policy, whether it runs, at which severity, with which parameter values.
 * Each entry extends the shape of a `GET /governance/policies` catalog entry.
 */
import type { FrameworkRef } from '../frameworks/registry.js';
import type { Policy, PolicyCategory } from '../policies/types.js';
import type { Severity } from '../severity.js';
import type { GovernanceSettingsBody } from './settings.js';
import { POLICIES } from '../policies/catalog.js';
import { CATEGORY_NAMES } from '../policies/types.js';
import { resolveParams } from '../policies/params.js';

/** One parameter of an effective policy: its declaration, the organization's `value` and the `default`. */
export interface EffectiveParameter {
  readonly name: string;
  readonly type: 'integer' | 'string-list';
  readonly description: string;
  readonly value: number | readonly string[];
  readonly default: number | readonly string[];
  /** Inclusive bounds of an integer. */
  readonly minimum?: number;
  readonly maximum?: number;
  /** Limits of a string list: most items, and the pattern and length of each. */
  readonly max_items?: number;
  readonly item_pattern?: string;
  readonly item_max_length?: number;
}

/** One policy of the effective catalog: a catalog entry plus what the organization's settings make of it. */
export interface EffectivePolicy {
  readonly code: string;
  readonly title: string;
  readonly category: PolicyCategory;
  readonly category_name: string;
  /** The catalog's severity (a custom rule's own). */
  readonly severity: Severity;
  /** The severity its findings take: the organization's override, else `severity`. */
  readonly effective_severity: Severity;
  /** False when the organization disabled it (`disabled_policies`). */
  readonly enabled: boolean;
  readonly source: 'builtin' | 'custom';
  readonly compliance_frameworks: readonly FrameworkRef[];
  readonly description: string;
  readonly rationale: string;
  readonly remediation_effort: 'low' | 'medium' | 'high';
  /** Its documentation page; `null` for a custom rule. */
  readonly docs: string | null;
  /** Its declared parameters (empty when none). */
  readonly parameters: readonly EffectiveParameter[];
}

function entry(p: Policy, source: 'builtin' | 'custom', settings: GovernanceSettingsBody | undefined): EffectivePolicy {
  const values = resolveParams(p, settings?.parameters);
  return {
    code: p.code,
    title: p.title,
    category: p.category,
    category_name: CATEGORY_NAMES[p.category],
    severity: p.severity,
    effective_severity: settings?.severity_overrides[p.code] ?? p.severity,
    enabled: !(settings?.disabled_policies.includes(p.code) ?? false),
    source,
    compliance_frameworks: p.compliance_frameworks,
    description: p.description,
    rationale: p.rationale,
    remediation_effort: p.remediation.effort,
    docs: source === 'builtin' ? `docs/policies/${p.code}.md` : null,
    parameters: (p.parameters ?? []).map((d): EffectiveParameter => {
      const common = {
        name: d.name,
        type: d.type,
        description: d.description,
        value: values[d.name]!,
        default: d.default,
      };
      return d.type === 'integer'
        ? { ...common, minimum: d.minimum, maximum: d.maximum }
        : { ...common, max_items: d.maxItems, item_pattern: d.itemPattern, item_max_length: d.itemMaxLength };
    }),
  };
}

/**
 * The effective catalog of an organization: every built-in policy in catalog order, then `extra`
 * (its custom rules), each with its effective severity, whether it runs and its parameter values.
 * `settings` absent: the catalog as is (everything enabled, catalog severities, defaults).
 */
export function effectiveCatalog(
  settings: GovernanceSettingsBody | undefined,
  extra: readonly Policy[],
): EffectivePolicy[] {
  return [...POLICIES.map((p) => entry(p, 'builtin', settings)), ...extra.map((p) => entry(p, 'custom', settings))];
}
