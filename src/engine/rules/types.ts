/** @module engine/rules/types: an organization's custom rule (issue 17) as declarative data, and its limits. */
import type { FrameworkRef } from '../frameworks/registry.js';
import type { PolicyCategory } from '../policies/types.js';
import type { Severity } from '../severity.js';

/**
 * Limits of a rule body (docs/custom-rules.md *Limits*). They bound what one rule can cost in a
 * worker: a rule is data, never code, and its evaluation is O(modules × conditions) with every
 * regular expression tested on at most `regexInput` characters.
 */
export const RULE_LIMITS = {
  /** Largest body, in bytes of its JSON (UTF-8). */
  bodyBytes: 16 * 1024,
  /** Longest `title`, in characters. */
  title: 120,
  /** Longest `description`, in characters. */
  description: 2000,
  /** Longest `remediation`, in characters. */
  remediation: 4000,
  /** `all` / `any` / `not` nested inside one another, at most. */
  depth: 4,
  /** Conditions that are not `all` / `any` / `not`, in the whole tree. */
  leaves: 32,
  /** Longest `matches` pattern, in characters. */
  regex: 200,
  /**
   * Most RE2 instructions a pattern compiles to (`linear-pattern.ts`). Matching is linear in the value,
   * at worst this many steps per character: 500 keeps the worst pattern measured at 55-90 ms per
   * 4,096-character value (docs/custom-rules.md *Patterns*); `[a-f0-9]{64}` is 66.
   */
  regexProgram: 500,
  /** Characters of a value a pattern is tested on (longer values are cut). */
  regexInput: 4096,
  /** Longest field path, in characters, and most segments. */
  path: 200,
  pathSegments: 16,
  /** Values one field path may reach in one module (a `*` segment fans out). */
  valuesPerPath: 256,
  /** Entries of an `app`, `module`, `domain_in` or `domain_not_in` list. */
  list: 64,
  /** Modules reported per rule and scenario (further matches are counted in the summary only). */
  findings: 200,
  /** Entries of `compliance_frameworks`. */
  frameworks: 16,
} as const;

/** Where a value must come from, by the engine's data-flow analysis (`dataflow.ts`). */
export type ValueOrigin = 'untrusted' | 'personal';

/** One name or a list of names (any of them). */
export type NameOrList = string | readonly string[];

/** Every condition holds. */
export interface AllCondition {
  readonly all: readonly Condition[];
}
/** At least one condition holds. */
export interface AnyCondition {
  readonly any: readonly Condition[];
}
/** The condition does not hold. */
export interface NotCondition {
  readonly not: Condition;
}
/** The module's app (`google-sheets`; a custom app by its name without `app#` and id suffix). */
export interface AppCondition {
  readonly app: NameOrList;
}
/** The module's exact type (`http:ActionSendData`). */
export interface ModuleCondition {
  readonly module: NameOrList;
}
/** The module has (true) or has no (false) error-handler route. */
export interface ErrorHandlerCondition {
  readonly has_error_handler: boolean;
}
/** A module that follows this one directly (next module, or first module of a router route) has a filter with conditions. */
export interface FilterCondition {
  readonly followed_by_filter: boolean;
}
/** The module is (or is not) the scenario's trigger (first module, classified as a trigger). */
export interface TriggerCondition {
  readonly is_trigger: boolean;
}
/** A mapped value of the module (under `field` when given) derives from an untrusted or personal source. */
export interface ValueFromCondition {
  readonly value_from: ValueOrigin;
  readonly field?: string;
}

/**
 * A test on the value(s) at `field`, a JSON Pointer under `/mapper` or `/parameters` where a `*`
 * segment stands for every array item or object member. Exactly one operator.
 */
export type FieldCondition = { readonly field: string } & (
  | { readonly equals: string | number | boolean }
  | { readonly matches: string }
  | { readonly present: true }
  | { readonly absent: true }
  | { readonly domain_in: readonly string[] }
  | { readonly domain_not_in: readonly string[] }
);

/** The field operators, in the order the docs list them. */
export const FIELD_OPERATORS = ['equals', 'matches', 'present', 'absent', 'domain_in', 'domain_not_in'] as const;
/** One field operator. */
export type FieldOperator = (typeof FIELD_OPERATORS)[number];

/** A node of a rule's `match` tree. */
export type Condition =
  | AllCondition
  | AnyCondition
  | NotCondition
  | AppCondition
  | ModuleCondition
  | ErrorHandlerCondition
  | FilterCondition
  | TriggerCondition
  | ValueFromCondition
  | FieldCondition;

/** An organization's custom rule body (docs/custom-rules.md). Its code `ORG-<n>` is assigned by the service. */
export interface CustomRule {
  /** Short name, at most 120 characters. */
  readonly title: string;
  /** What the rule checks; the title when absent. */
  readonly description?: string;
  readonly severity: Severity;
  /** Where its score penalty and badges go; required, so that a security rule is never filed under operations by default. */
  readonly category: PolicyCategory;
  /** `fail` (default) or `warn` (advisory: half the score penalty, no compliance gap). */
  readonly status?: 'fail' | 'warn';
  /** Controls the rule enforces, in the built-in policies' shape; framework names from `frameworks/registry.ts`. */
  readonly compliance_frameworks?: readonly FrameworkRef[];
  /** What to do, as text; each non-empty line becomes one remediation step. */
  readonly remediation: string;
  readonly match: Condition;
}
