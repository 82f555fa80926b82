/** @module engine/evaluate: blueprint → violations, badges, score, remediation and module graph (pure, synchronous). */
import type { GraphEdgeKind, ModuleNode } from './blueprint/types.js';
import type { EngineError } from './errors.js';
import type { FrameworkRef } from './frameworks/registry.js';
import type { GovernanceSettingsBody } from './governance/settings.js';
import type { Finding, Policy, PolicyOutcome, PolicyParams } from './policies/types.js';
import type { EvidenceStep, RiskRow } from './risk/types.js';
import type { Severity } from './severity.js';
import { Analysis } from './analysis.js';
import { parseBlueprint } from './blueprint/parse.js';
import { complianceGaps } from './gaps.js';
import { buildRemediation, type Remediation } from './remediation.js';
import { fingerprintFrom, fingerprintWithPrefix } from './fingerprint.js';
import { overrideSeverity, planPolicies } from './governance/plan.js';
import { defaultParams } from './policies/params.js';
import { capUnreachable } from './reachability.js';
import { completePath } from './risk/path.js';
import { scenarioScore } from './score.js';
import { FALLBACK_SEVERITY, SEVERITY_RANK, worse } from './severity.js';

/** Failing module entry (spec §2 Violation: module_id, module_name, module_type, reason, badge). */
export interface FailingModule {
  readonly module_id: string;
  readonly module_name: string;
  readonly module_type: string;
  readonly reason: string;
  /** Worst severity among all violations touching this module (spec §2). */
  readonly badge: Severity;
  /** This finding's own contextual severity. */
  readonly severity: Severity;
  readonly evidence?: FindingEvidence;
  /** Stable fingerprint of (policy, scenario, module pointer). */
  readonly fingerprint: string;
}

/**
 * A finding's evidence (additive fields of issue 32): the JSON Pointer and redacted excerpt as
 * before; `path`, the modules the data travels through from its source to this module (the sink),
 * completed by the engine (`risk/path.ts`); `risk`, the risk-model row that set the severity. Both
 * only when the policy reports them. `pointer` is the module's own pointer when the policy gave a
 * path but no pointer.
 */
export interface FindingEvidence {
  readonly pointer: string;
  readonly value?: string;
  /**
   * Every place of the one thing the finding reports, `pointer` first, when it is in more than one
   * (issue 32: one literal secret is one finding with all its locations): module id and JSON Pointer.
   */
  readonly locations?: readonly { readonly module_id: string; readonly pointer: string }[];
  readonly path?: readonly EvidencePathStep[];
  readonly risk?: EvidenceRisk;
}

/** One step of an evidence path in a result: the module, its role and one short Markdown line (never empty). */
export interface EvidencePathStep {
  readonly module_id: string;
  readonly module_name: string;
  readonly role: EvidenceStep['role'];
  readonly note: string;
}

/**
 * The risk-model row of a finding in a result (`RiskRow` with snake_case keys): its id (`R7`), its
 * statement, the severity the row sets (the finding's own `severity` may be lower: capped on a route
 * that cannot run, or set by the organization) and the dimension values the policy observed.
 */
export type EvidenceRisk = Omit<RiskRow, 'id'> & { readonly row: string };

/** A violation (spec §2 Violation), plus `category`, `evidence` and `fingerprint` (additive fields). */
export interface Violation {
  readonly policy: string;
  readonly status: 'fail' | 'warn';
  readonly severity: Severity;
  readonly title: string;
  readonly description: string;
  readonly remediation_available: boolean;
  readonly failing_modules: readonly FailingModule[];
  readonly source: 'automated';
  readonly summary: string;
  readonly compliance_frameworks: readonly FrameworkRef[];
  readonly category: string;
  readonly evidence?: { readonly pointer: string; readonly value?: string };
  readonly fingerprint: string;
}

/** Per-module rollup (spec §2 Module violation entry / module_summary). */
export interface ModuleSummaryEntry {
  readonly module_id: string;
  readonly module_name: string;
  readonly module_type: string;
  readonly badge: Severity;
  readonly violation_count: number;
  readonly policies: readonly string[];
}

/** Canvas module graph (design notes "Inline result": nodes and edges). */
export interface ModuleGraph {
  readonly nodes: readonly {
    module_id: string;
    module_name: string;
    module_type: string;
    app: string;
    position: { x: number; y: number } | null;
    badge: Severity | null;
    violation_count: number;
    policies: string[];
  }[];
  readonly edges: readonly {
    from: string;
    to: string;
    /** `next`, `route`, `error`, `branch` (if/else), `merge` (branch to Merge), `tool` (agent to tool): `GraphEdgeKind`. */
    kind: GraphEdgeKind;
    route_index?: number;
    filter?: string;
  }[];
}

export type { Remediation };

/** The full evaluation of one scenario. */
export interface ScenarioEvaluation {
  readonly scenario_name: string;
  readonly score: number;
  readonly violations: readonly Violation[];
  readonly module_summary: readonly ModuleSummaryEntry[];
  readonly evaluated_codes: readonly string[];
  readonly passing_count: number;
  readonly failing_count: number;
  /** `"<framework> <control|article>"` of every failing (`fail`) violation's frameworks, sorted. */
  readonly compliance_gaps: readonly string[];
  readonly critical: number;
  /** Remediation per violated policy code; `null` where generating it failed. */
  readonly remediation: Readonly<Record<string, Remediation | null>>;
  readonly module_graph: ModuleGraph;
  /** Policies that threw (engine bugs), by code; they are left out of `evaluated_codes`. */
  readonly policy_errors: readonly { policy: string; message: string }[];
  readonly module_count: number;
}

/** Options of `evaluateBlueprint`. */
export interface EvaluateOptions {
  /** The scenario id, part of each fingerprint. */
  readonly scenarioId: string;
  /** Only these policy codes (default: all). */
  readonly include?: readonly string[];
  /** Skip these policy codes. */
  readonly exclude?: readonly string[];
  /** Clock for per-policy timing (ms); the engine never reads one itself. */
  readonly now?: () => number;
  /** Receives each policy's duration in ms when `now` is given. */
  readonly onTiming?: (code: string, ms: number) => void;
  /**
   * The organization's settings (issue 17; validate them with `validateSettings` first): disabled
   * codes do not run and are not in `evaluated_codes`; a severity override replaces the policy's
   * severity and every finding's (badges, score and `critical` follow); parameters reach the
   * policies that declare them. Default: the catalog as is.
   */
  readonly settings?: GovernanceSettingsBody;
  /**
   * Policies run after the catalog (an organization's custom rules, compiled elsewhere), under the
   * same disabled list, overrides and parameters. Default: none.
   */
  readonly extraPolicies?: readonly Policy[];
}

/** Result of `evaluateBlueprint`. */
export type EvaluateResult =
  { readonly ok: true; readonly evaluation: ScenarioEvaluation } | { readonly ok: false; readonly error: EngineError };

/**
 * Parses and evaluates one blueprint against the catalog. Never throws for bad input: returns
 * `{ ok: false, error }` with the JSON Pointer of the first problem (code `blueprint_invalid`).
 * A policy that throws is recorded in `policy_errors` and the rest still run.
 */
export function evaluateBlueprint(input: unknown, options: EvaluateOptions): EvaluateResult {
  const parsed = parseBlueprint(input);
  if (!parsed.ok) return parsed;
  const analysis = new Analysis(parsed.graph);
  const outcomes: { policy: Policy; outcome: PolicyOutcome }[] = [];
  const evaluated: string[] = [];
  const policyErrors: { policy: string; message: string }[] = [];
  for (const { policy, params, severity } of planPolicies(options)) {
    const run = runPolicy(policy, analysis, options, params);
    if ('error' in run) {
      policyErrors.push({ policy: policy.code, message: run.error });
      continue;
    }
    evaluated.push(policy.code);
    if (!run.outcome) continue;
    // The organization's severity first, then the cap: a finding on a module that cannot run as
    // exported is capped at low, whatever the policy and its severity (reachability.ts).
    const outcome = severity === null ? run.outcome : overrideSeverity(run.outcome, severity);
    outcomes.push({ policy, outcome: capUnreachable(outcome, analysis.unreachable(), policy) });
  }
  return { ok: true, evaluation: shape(analysis, outcomes, evaluated, policyErrors, options.scenarioId) };
}

/** Runs one policy with error capture and optional timing; `params` defaults to its declared defaults. */
export function runPolicy(
  policy: Policy,
  analysis: Analysis,
  options: Pick<EvaluateOptions, 'now' | 'onTiming'>,
  params: PolicyParams = defaultParams(policy),
): { outcome: PolicyOutcome | null } | { error: string } {
  const { now, onTiming } = options;
  if (!now || !onTiming) return attempt(policy, analysis, params);
  const started = now();
  const run = attempt(policy, analysis, params);
  onTiming(policy.code, now() - started);
  return run;
}

/** One policy with error capture (kept apart from the timing so the common, untimed path has no `finally`). */
function attempt(
  policy: Policy,
  analysis: Analysis,
  params: PolicyParams,
): { outcome: PolicyOutcome | null } | { error: string } {
  try {
    return { outcome: policy.evaluate(analysis, params) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

function shape(
  analysis: Analysis,
  outcomes: readonly { policy: Policy; outcome: PolicyOutcome }[],
  evaluated: string[],
  policyErrors: { policy: string; message: string }[],
  scenarioId: string,
): ScenarioEvaluation {
  // Per module, by `ordinal`: its badge (the worst severity of its findings, spec §2) and the codes of
  // the policies with a finding on it, in first-finding order. Arrays, not Maps keyed by module id.
  const count = analysis.graph.modules.length;
  const badges: (Severity | null)[] = new Array<Severity | null>(count).fill(null);
  const codes: string[][] = [];
  for (let i = 0; i < count; i++) codes.push([]);
  const violationSeverity = (policy: Policy, outcome: PolicyOutcome): Severity => {
    if (outcome.findings.length === 0) return outcome.severity ?? policy.severity ?? FALLBACK_SEVERITY;
    return outcome.findings.reduce<Severity>((acc, f) => worse(acc, f.severity ?? policy.severity), 'info');
  };
  for (const { policy, outcome } of outcomes) {
    for (const f of outcome.findings) {
      const at = analysis.module(f.moduleId).ordinal;
      const sev = f.severity ?? policy.severity;
      const b = badges[at]!;
      if (b === null || SEVERITY_RANK[sev] > SEVERITY_RANK[b]) badges[at] = sev;
      // Each policy has one outcome, so a repeat of its code on a module can only follow itself.
      if (codes[at]!.at(-1) !== policy.code) codes[at]!.push(policy.code);
    }
  }
  const badge = (m: ModuleNode): Severity | null => badges[m.ordinal]!;
  const violations: Violation[] = [];
  const remediation: Record<string, Remediation | null> = {};
  for (const { policy, outcome } of outcomes) {
    const severity = violationSeverity(policy, outcome);
    const { fingerprint: fp, prefix } = fingerprintWithPrefix(policy.code, scenarioId);
    const failing = outcome.findings.map((f): FailingModule => {
      const m = analysis.module(f.moduleId);
      const own = fingerprintFrom(prefix, [f.evidence?.pointer ?? m.pointer]);
      const b = badge(m) ?? severity;
      const sev = f.severity ?? policy.severity;
      const evidence =
        f.path === undefined && f.risk === undefined && f.locations === undefined
          ? f.evidence
          : findingEvidence(analysis, f, m);
      // Two literals rather than a conditional spread: a spread in the middle of a literal takes V8's slow path.
      return evidence
        ? {
            module_id: m.id,
            module_name: m.name,
            module_type: m.type,
            reason: f.reason,
            badge: b,
            severity: sev,
            evidence,
            fingerprint: own,
          }
        : {
            module_id: m.id,
            module_name: m.name,
            module_type: m.type,
            reason: f.reason,
            badge: b,
            severity: sev,
            fingerprint: own,
          };
    });
    const rem = buildRemediation(policy, outcome, analysis, severity);
    remediation[policy.code] = rem;
    violations.push(
      outcome.evidence
        ? {
            policy: policy.code,
            status: outcome.status,
            severity,
            title: policy.title,
            description: policy.description,
            remediation_available: rem !== null,
            failing_modules: failing,
            source: 'automated',
            summary: outcome.summary,
            compliance_frameworks: policy.compliance_frameworks,
            category: policy.category,
            evidence: outcome.evidence,
            fingerprint: fp,
          }
        : {
            policy: policy.code,
            status: outcome.status,
            severity,
            title: policy.title,
            description: policy.description,
            remediation_available: rem !== null,
            failing_modules: failing,
            source: 'automated',
            summary: outcome.summary,
            compliance_frameworks: policy.compliance_frameworks,
            category: policy.category,
            fingerprint: fp,
          },
    );
  }
  violations.sort(
    (a, b) =>
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      (a.status === b.status ? 0 : a.status === 'fail' ? -1 : 1),
  );
  const moduleSummary: ModuleSummaryEntry[] = [];
  for (const m of analysis.graph.modules) {
    const b = badge(m);
    if (b === null) continue;
    const policies = codes[m.ordinal]!.slice();
    moduleSummary.push({
      module_id: m.id,
      module_name: m.name,
      module_type: m.type,
      badge: b,
      violation_count: policies.length,
      policies,
    });
  }
  return {
    scenario_name: analysis.graph.name,
    score: scenarioScore(violations),
    violations,
    module_summary: moduleSummary,
    evaluated_codes: evaluated,
    passing_count: evaluated.length - violations.length,
    failing_count: violations.length,
    compliance_gaps: complianceGaps(violations),
    critical: violations.filter((v) => v.severity === 'critical').length,
    remediation,
    module_graph: moduleGraph(analysis.graph.modules, analysis, badge, codes),
    policy_errors: policyErrors,
    module_count: analysis.graph.modules.length,
  };
}

/**
 * The result evidence of a finding that has a path or a risk row: its pointer (the module's when the
 * policy gave none; the fingerprint still hashes the policy's pointer, or the module's, as before)
 * and value, the path completed (`completePath`) with module names, and the risk row in snake_case.
 */
function findingEvidence(analysis: Analysis, f: Finding, m: ModuleNode): FindingEvidence {
  // Built by assignment rather than conditional spreads: this runs once per finding on the hot path.
  const out: { -readonly [K in keyof FindingEvidence]: FindingEvidence[K] } = {
    pointer: f.evidence?.pointer ?? m.pointer,
  };
  if (f.evidence?.value !== undefined) out.value = f.evidence.value;
  if (f.locations !== undefined && f.locations.length > 1)
    out.locations = f.locations.map((l) => ({ module_id: l.moduleId, pointer: l.pointer }));
  if (f.path !== undefined) {
    const path = completePath(analysis, f.path).map(pathStep(analysis));
    if (path.length > 0) out.path = path;
  }
  if (f.risk !== undefined) out.risk = riskOf(f.risk);
  return out;
}

/** `EvidenceStep` → its result shape, with the module's display name. */
function pathStep(analysis: Analysis): (s: EvidenceStep) => EvidencePathStep {
  return (s) => ({
    module_id: s.moduleId,
    module_name: analysis.module(s.moduleId).name,
    role: s.role,
    note: s.note ?? '',
  });
}

/** `RiskRow` → `EvidenceRisk` (absent dimensions stay absent). */
function riskOf(r: RiskRow): EvidenceRisk {
  const out: { -readonly [K in keyof EvidenceRisk]: EvidenceRisk[K] } = {
    row: r.id,
    title: r.title,
    severity: r.severity,
  };
  if (r.audience !== undefined) out.audience = r.audience;
  if (r.trust !== undefined) out.trust = r.trust;
  if (r.sensitivity !== undefined) out.sensitivity = r.sensitivity;
  if (r.impact !== undefined) out.impact = r.impact;
  return out;
}

function moduleGraph(
  modules: readonly ModuleNode[],
  analysis: Analysis,
  badge: (m: ModuleNode) => Severity | null,
  codes: readonly (readonly string[])[],
): ModuleGraph {
  return {
    nodes: modules.map((m) => {
      const policies = codes[m.ordinal]!.slice();
      return {
        module_id: m.id,
        module_name: m.name,
        module_type: m.type,
        app: m.app,
        position: m.position ? { x: m.position.x, y: m.position.y } : null,
        badge: badge(m),
        violation_count: policies.length,
        policies,
      };
    }),
    edges: analysis.graph.edges.map((e) => {
      if (e.routeIndex === undefined)
        return e.filter === undefined
          ? { from: e.from, to: e.to, kind: e.kind }
          : { from: e.from, to: e.to, kind: e.kind, filter: e.filter };
      return e.filter === undefined
        ? { from: e.from, to: e.to, kind: e.kind, route_index: e.routeIndex }
        : { from: e.from, to: e.to, kind: e.kind, route_index: e.routeIndex, filter: e.filter };
    }),
  };
}
