/**
 * @module engine/reachability: modules that cannot run as exported (static, conservative), and the
 * severity cap every finding on them gets.
 *
 * Make runs a router's routes one after another, each whose filter passes; a route marked disabled
 * never runs; a filter between two modules stops the bundle when its condition fails (Make help
 * "Router", "Filtering"). A module is unreachable when it sits on a disabled route, or behind a filter
 * that can never pass because it compares values known at design time: a literal operand, or the
 * output of an earlier *Set variable(s)* module that sets a literal. Only `text:equal`,
 * `text:notequal` (and `:ci`), `number:equal`, `number:notequal`, `exist` and `notexist` are judged;
 * anything else, or any mapped value, is taken as able to pass. Whatever follows an unreachable
 * module in its flow, its routes and its error handler are unreachable too. The same holds for
 * if/else branches (a disabled branch; a branch condition that can never pass, judged the same way)
 * and agent tools (a tool of an unreachable agent). Orphans (`metadata.designer.orphans`: canvas
 * modules not connected to the flow) never run: Make skips them (the editor warns "This module is
 * not connected to the flow ... will be skipped during execution").
 */
import type { Json, JsonObject, ModuleFilter, ModuleNode, ScenarioGraph } from './blueprint/types.js';
import type { Finding, Policy, PolicyOutcome } from './policies/types.js';
import type { Severity } from './severity.js';
import { SEVERITY_RANK } from './severity.js';

/** The highest severity a finding on an unreachable module keeps: dead code is hygiene. */
export const UNREACHABLE_CAP: Severity = 'low';

/** Set-variable modules whose output fields are the variables they set (Make *Tools*). */
const SET_ONE = new Set(['util:SetVariable2', 'util:SetVariable']);
const SET_MANY = 'util:SetVariables';
/** An operand that is one whole reference: `{{11.path}}`, ``{{3.`Full Name`}}``. */
const WHOLE_REF = /^\{\{(\d+)\.(?:`([^`]+)`|([A-Za-z0-9_-]+))\}\}$/;

/** A design-time constant, or `undefined` when the value is only known at run time. */
type Known = string | undefined;

/**
 * Unreachable modules of a scenario, each with why (`route 2 of router 3 is disabled`). One pass over
 * the modules in document order (a module before its error handler and routes, siblings in order).
 */
export function unreachableModules(graph: ScenarioGraph): ReadonlyMap<string, string> {
  const dead = new Map<string, string>();
  /** Reason inherited by the next module of each flow (keyed by container, parent and route). */
  const flowDead = new Map<string, string | null>();
  for (const m of graph.modules) {
    const inherited = m.index > 0 ? (flowDead.get(flowKey(m)) ?? null) : entryReason(graph, m, dead);
    const reason = inherited ?? failingFilter(graph, m);
    flowDead.set(flowKey(m), reason);
    if (reason !== null) dead.set(m.id, reason);
  }
  return dead;
}

/**
 * Caps the findings of one policy outcome on unreachable modules at `UNREACHABLE_CAP` and says why in
 * the reason; returns the outcome itself when no finding is on one, or when the policy's subject is
 * the exported artefact (a hard-coded secret is readable in the file whether or not its route runs).
 */
export function capUnreachable(
  outcome: PolicyOutcome,
  dead: ReadonlyMap<string, string>,
  policy: Pick<Policy, 'severity' | 'subject'>,
): PolicyOutcome {
  if (dead.size === 0 || policy.subject === 'artefact' || !outcome.findings.some((f) => dead.has(f.moduleId)))
    return outcome;
  const findings = outcome.findings.map((f): Finding => {
    const why = dead.get(f.moduleId);
    if (why === undefined) return f;
    const own = f.severity ?? policy.severity;
    const severity = SEVERITY_RANK[own] > SEVERITY_RANK[UNREACHABLE_CAP] ? UNREACHABLE_CAP : own;
    const reason = `${f.reason}; on a route that cannot run as exported: ${why}`;
    // A finding with an evidence path or risk row keeps them (rare enough to spread).
    if (f.path !== undefined || f.risk !== undefined) return { ...f, reason, severity };
    // Fields named, not spread: findings come in one shape per policy, and spreading them is megamorphic and slow.
    return f.evidence
      ? { moduleId: f.moduleId, reason, severity, evidence: f.evidence }
      : { moduleId: f.moduleId, reason, severity };
  });
  return { ...outcome, findings };
}

function flowKey(m: ModuleNode): string {
  return `${m.container}|${m.parentId ?? ''}|${m.routeIndex ?? ''}`;
}

/** The reason every orphan module is given. */
export const ORPHAN_REASON = 'not connected to the flow (a module left on the canvas: Make skips it)';

/**
 * Why the first module of a flow cannot run: it is an orphan; its router, if/else, agent or failing
 * module cannot run; its route or branch is disabled; its branch condition can never pass.
 */
function entryReason(graph: ScenarioGraph, m: ModuleNode, dead: ReadonlyMap<string, string>): string | null {
  if (m.container === 'orphan') return ORPHAN_REASON;
  if (m.parentId === null) return null;
  const parentReason = dead.get(m.parentId);
  if (parentReason !== undefined) return parentReason;
  const parent = graph.byId.get(m.parentId);
  if (!parent || m.routeIndex === null) return null;
  if (m.container === 'route' && parent.routes[m.routeIndex]?.disabled) {
    return `route ${m.routeIndex + 1} of router ${parent.id} is disabled`;
  }
  const branch = m.container === 'branch' ? parent.branches[m.routeIndex] : undefined;
  if (branch?.disabled) return `branch ${m.routeIndex + 1} of if/else ${parent.id} is disabled`;
  const never = branch?.condition ? neverPasses(graph, parent, branch.condition.conditions) : null;
  if (never !== null)
    return `the condition of branch ${m.routeIndex + 1} ("${branch!.label}") of if/else ${parent.id} can never pass (${never})`;
  return null;
}

/** Why the module's own filter can never pass, or `null` when it may (or there is none). */
function failingFilter(graph: ScenarioGraph, m: ModuleNode): string | null {
  const why = neverPasses(graph, m, m.filter?.conditions ?? []);
  return why === null ? null : `filter "${m.filter!.name}" can never pass (${why})`;
}

/**
 * Why condition groups (OR of AND-groups) judged at module `m` can never pass, or `null` when they
 * may (or there are none).
 */
function neverPasses(graph: ScenarioGraph, m: ModuleNode, groups: ModuleFilter['conditions']): string | null {
  if (groups.length === 0 || groups.some((g) => g.length === 0)) return null;
  const whys: string[] = [];
  for (const group of groups) {
    const why = group.map((c) => impossible(graph, m, c)).find((w) => w !== null);
    if (why === undefined || why === null) return null;
    whys.push(why);
  }
  return whys.join('; or ');
}

/** Why one condition can never hold, or `null` when it may. */
function impossible(graph: ScenarioGraph, m: ModuleNode, c: JsonObject): string | null {
  const op = typeof c['o'] === 'string' ? c['o'] : '';
  const a = known(graph, m, c['a']);
  if (a.value === undefined) return null;
  if (op === 'exist' || op === 'notexist') {
    const holds = (a.value !== '') === (op === 'exist');
    return holds ? null : `${a.text} is always ${a.value === '' ? 'empty' : 'set'}`;
  }
  const b = known(graph, m, c['b']);
  if (b.value === undefined) return null;
  const [kind, verb, ci] = op.split(':');
  let equal: boolean;
  if (kind === 'text') {
    equal = ci === 'ci' ? a.value.toLowerCase() === b.value.toLowerCase() : a.value === b.value;
  } else if (kind === 'number') {
    const x = toNumber(a.value);
    const y = toNumber(b.value);
    if (x === null || y === null) return null;
    equal = x === y;
  } else {
    return null;
  }
  if (verb === 'equal') return equal ? null : `${a.text} never equals ${b.text}`;
  if (verb === 'notequal') return equal ? `${a.text} always equals ${b.text}` : null;
  return null;
}

/** The design-time value of a filter operand, and how a reason names it. */
function known(graph: ScenarioGraph, m: ModuleNode, operand: Json | undefined): { value: Known; text: string } {
  if (operand === undefined || operand === null) return { value: '', text: 'an empty value' };
  if (typeof operand === 'number' || typeof operand === 'boolean')
    return { value: String(operand), text: `"${String(operand)}"` };
  if (typeof operand !== 'string') return { value: undefined, text: '' };
  if (!operand.includes('{{')) return { value: operand, text: `"${operand}"` };
  const ref = WHOLE_REF.exec(operand);
  if (!ref) return { value: undefined, text: '' };
  const source = graph.byId.get(ref[1]!);
  const value = source && runsBefore(graph, source, m) ? setLiteral(source, ref[2] ?? ref[3]!) : undefined;
  return {
    value,
    text: value === undefined ? '' : `${operand} (set to the constant "${value}" by module ${source!.id})`,
  };
}

/** The literal a set-variable module gives the variable `name`, or `undefined` (mapped, absent, not a set-variable). */
function setLiteral(source: ModuleNode, name: string): Known {
  const mapper = source.mapper;
  if (!mapper) return undefined;
  let value: Json | undefined;
  if (SET_ONE.has(source.type)) value = mapper['name'] === name ? mapper['value'] : undefined;
  else if (source.type === SET_MANY && Array.isArray(mapper['variables'])) {
    const matches = mapper['variables'].filter(
      (v): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v) && v['name'] === name,
    );
    value = matches.length === 1 ? matches[0]!['value'] : undefined;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'string' && !value.includes('{{') ? value : undefined;
}

/** True when `source` runs before `m` on every path to `m`: earlier in its flow or in an enclosing one. */
function runsBefore(graph: ScenarioGraph, source: ModuleNode, m: ModuleNode): boolean {
  for (
    let cur: ModuleNode | undefined = m;
    cur;
    cur = cur.parentId === null ? undefined : graph.byId.get(cur.parentId)
  ) {
    if (
      source.container === cur.container &&
      source.parentId === cur.parentId &&
      source.routeIndex === cur.routeIndex &&
      source.index < cur.index
    )
      return true;
  }
  return false;
}

/** A number as Make's number operators read text (`"3"`, `" 2.5 "`), or `null`. */
function toNumber(s: string): number | null {
  const t = s.trim();
  return t !== '' && Number.isFinite(Number(t)) ? Number(t) : null;
}
