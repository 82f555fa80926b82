/** @module engine/policies/di/DI-5: routers that drop bundles matching no route. */
import type { JsonObject, ModuleFilter, ModuleNode } from '../../blueprint/types.js';
import type { Analysis } from '../../analysis.js';
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify, httpMethod } from '../../blueprint/classify.js';
import { actionWords } from '../../blueprint/verbs.js';
import { findingModules, moduleRef } from '../helpers.js';
import { extractRefs } from '../../blueprint/expressions.js';
import { nestedFlows, subtreeOf } from '../../blueprint/flows.js';
import { hasConditions } from './shared.js';
import { routeCover, type OperandResolver } from './route-cover.js';

/** Action verbs that change fields of a record that already exists (`ActionUpdateRecords`, `updateRow`, `editATask`). */
const UPDATE_VERB = /^(?:update|patch|edit|modify|increment|decrement)/;

/**
 * DI-5: every enabled route is filtered, none is the fallback (`else`) route, and the filters can
 * leave a bundle with no route. Not reported: filters that together pass every bundle
 * (`X exists` / `X notexist`, `= A or = B` / `≠ A and ≠ B`; `route-cover.ts`); routes that can both
 * run for one bundle and only update records that already exist (independent optional updates, where
 * a bundle matching none needs no change: make `anton-chernov` 37); a router whose routes are all
 * disabled (make-extra `stdok-generate-report` 8) or that has one enabled route (a filter: dropping
 * what it does not match is its purpose; make `geekalyssa-4` 49 updates a record only when one was found).
 */
export const DI_5: Policy = {
  code: 'DI-5',
  title: 'Router without a fallback route',
  category: 'DI',
  severity: 'medium',
  description:
    'Every route of a router has a filter and none is marked as the fallback route, so a bundle that matches no filter is silently dropped. Filters that together pass every bundle (`exists` / `does not exist` on the same value), routes that are independent optional updates of an existing record, and a router with a single route (a filter) are not reported.',
  rationale:
    'Unmatched bundles vanish without an error or a log entry; a fallback route makes the unexpected case visible (SOC 2 PI1.3 complete processing; ISO/IEC 27001 A.8.28 secure coding: handle every case).',
  compliance_frameworks: [ref(F.soc2, 'PI1.3'), ref(F.iso27001, 'A.8.28')],
  examples: {
    avoid: 'A `builtin:BasicRouter` whose two routes both start with a filter and `parameters: null`.',
    prefer: 'A third route marked **fallback route** (`parameters: { "else": 2 }`) that logs or alerts.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      if (classify(m).flow !== 'router' || m.routes.length === 0) continue;
      const elseRoute = m.parameters?.['else'];
      if (typeof elseRoute === 'number' && elseRoute >= 0 && elseRoute < m.routes.length) continue;
      const enabled = m.routes.filter((r) => !r.disabled);
      // No enabled route: switched off on purpose. One route: a filter, whose purpose is to drop what it does not match.
      if (enabled.length < 2) continue;
      const filters: ModuleFilter[] = [];
      for (const r of enabled) {
        const head = r.moduleIds[0] !== undefined ? analysis.module(r.moduleIds[0]) : undefined;
        if (!head || !hasConditions(head.filter)) break;
        filters.push(head.filter);
      }
      if (filters.length < enabled.length) continue;
      const cover = routeCover(filters, constantVariable(analysis));
      if (cover?.complete || cover?.completeButExclusions) continue;
      if (cover?.overlapping && enabled.every((r) => onlyUpdates(analysis, r.moduleIds))) continue;
      if (dispatchesOwnStates(analysis, filters) || flagFallback(analysis, m)) continue;
      findings.push({
        moduleId: m.id,
        reason: `all ${enabled.length} routes are filtered and no fallback route is set: unmatched bundles are dropped`,
        evidence: { pointer: m.pointer },
      });
    }
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `${findings.length} router${findings.length === 1 ? '' : 's'} without a fallback route`,
        };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) =>
          `Add a route to ${moduleRef(m)}, open its filter settings and tick **Fallback route**; make it log or notify about the unmatched bundle.`,
      );
      steps.push('Review the existing filters so that every expected case is matched by exactly one route.');
      return steps;
    },
  },
};

/**
 * Resolves `{{11.path}}` to the literal a *Set variable(s)* module 11 stores under that name (make
 * `joseph19820124-skool-static-page-scraper-a-0525` 11 sets `path` to 3): a condition on it is decided.
 */
function constantVariable(analysis: Analysis): OperandResolver {
  return (operand) => {
    const m = /^\{\{\s*(\d+)\.(?:`([^`]+)`|([A-Za-z_][\w]*))\s*\}\}$/.exec(operand);
    const setter = m ? analysis.graph.byId.get(m[1]!) : undefined;
    if (!m || !setter || (setter.type !== 'util:SetVariable2' && setter.type !== 'util:SetVariables')) return null;
    const name = m[2] ?? m[3];
    const pairs =
      setter.type === 'util:SetVariable2'
        ? [setter.mapper]
        : Array.isArray(setter.mapper?.['variables'])
          ? setter.mapper['variables']
          : [];
    for (const p of pairs) {
      if (p && typeof p === 'object' && !Array.isArray(p) && p['name'] === name)
        return typeof p['value'] === 'string' && !p['value'].includes('{{') ? p['value'] : null;
    }
    return null;
  };
}

/**
 * True when the routes dispatch on a status field that this scenario itself sets to a value no route
 * takes: a write keyed on the same record puts a literal into the tested column (make-extra
 * `mbk-ai-social-media-automation-2` 8 routes "content generation" / "ready to post" and writes
 * "generated"; make `sergibuendia-community-manager-rrss-parte-2` 3 routes "Aprobado" / "Regenerar" and
 * writes "Pendiente de aprobación"). Those values are the workflow's waiting and done states, which
 * the router skips by design (the trigger sees the scenario's own updates).
 */
function dispatchesOwnStates(analysis: Analysis, filters: readonly ModuleFilter[]): boolean {
  const routed = new Map<string, { readonly source: string; readonly column: string; readonly values: Set<string> }>();
  for (const f of filters)
    for (const g of f.conditions)
      for (const c of g) {
        const a = typeof c['a'] === 'string' ? c['a'] : '';
        const b = typeof c['b'] === 'string' ? c['b'].trim() : '';
        const refs = extractRefs(a);
        const o = typeof c['o'] === 'string' ? c['o'] : '';
        if (!o.startsWith('text:equal') || b === '' || b.includes('{{') || refs.length !== 1) continue;
        const column = refs[0]!.path
          .split('.')
          .pop()!
          .replace(/[`[\]]/g, '');
        const key = `${refs[0]!.moduleId}\u0000${column}`;
        const entry = routed.get(key) ?? { source: refs[0]!.moduleId, column, values: new Set<string>() };
        entry.values.add(b.toLowerCase());
        routed.set(key, entry);
      }
  if (routed.size === 0) return false;
  const flow = analysis.dataflow();
  for (const leaf of analysis.strings()) {
    if (
      leaf.fieldName === null ||
      leaf.value.includes('{{') ||
      leaf.value.trim() === '' ||
      !leaf.pointer.includes('/mapper/values/')
    )
      continue;
    const entry = [...routed.values()].find((e) => e.column === leaf.fieldName);
    if (!entry || entry.values.has(leaf.value.trim().toLowerCase()) || classify(leaf.module).role !== 'write') continue;
    if (flow.refsOf(leaf.module.id).some((r) => r.moduleId === entry.source)) return true;
  }
  return false;
}

/** Names a *Set variable(s)* or *Get variable(s)* module sets or reads (`util:SetVariable2` `name`, `util:SetVariables` `variables[].name`). */
function variableNames(m: ModuleNode): string[] {
  if (!/^util:(?:Set|Get)Variables?2?$/.test(m.type) || !m.mapper) return [];
  const items = Array.isArray(m.mapper['variables']) ? m.mapper['variables'] : [m.mapper];
  return items.flatMap((x) =>
    x && typeof x === 'object' && !Array.isArray(x) && typeof x['name'] === 'string' ? [x['name']] : [],
  );
}

/** The modules of some routes and of the routes, branches and tools nested in them (error routes and disabled routes excluded). */
function subtree(analysis: Analysis, ids: readonly string[]): ModuleNode[] {
  return subtreeOf(analysis.graph, ids, { enabledOnly: true });
}

/**
 * True when the routes record in a variable that they handled the bundle, and a later route of an
 * enclosing router has a filter that passes when that variable is not set: the scenario's own fallback for whatever no route
 * handled (make `amrit-dash-update-apps-script-code-amrit-s-dsm-bot` 25: every route sets "Response
 * Sent", route 1 of router 5 answers the caller when it is not set).
 */
function flagFallback(analysis: Analysis, router: ModuleNode): boolean {
  const set = new Set(
    subtree(
      analysis,
      router.routes.filter((r) => !r.disabled).flatMap((r) => r.moduleIds),
    )
      .filter((x) => x.type.startsWith('util:SetVariable'))
      .flatMap(variableNames),
  );
  if (set.size === 0) return false;
  for (let at: ModuleNode = router, hops = 0; at.container === 'route' && at.parentId && hops < 64; hops++) {
    const parent = analysis.module(at.parentId);
    const later = parent.routes
      .slice((at.routeIndex ?? 0) + 1)
      .filter((r) => !r.disabled)
      .flatMap((r) => r.moduleIds);
    for (const x of subtree(analysis, later)) {
      if (x.filter?.conditions.some((g) => g.some((c) => readsUnsetFlag(analysis, c, set)))) return true;
    }
    at = parent;
  }
  return false;
}

/** A condition that passes when a flag was not set: `notexist`, or a negated comparison, on a *Get variable* of one of `names`. */
function readsUnsetFlag(analysis: Analysis, c: JsonObject, names: ReadonlySet<string>): boolean {
  const op = typeof c['o'] === 'string' ? c['o'] : '';
  if (op !== 'notexist' && !op.includes(':not')) return false;
  return extractRefs(typeof c['a'] === 'string' ? c['a'] : '').some((r) => {
    const g = analysis.graph.byId.get(r.moduleId);
    return g !== undefined && g.type.startsWith('util:GetVariable') && variableNames(g).some((n) => names.has(n));
  });
}

/** True when a route (and the routes, branches and tools nested in it) changes data only by updating records: no create, send or delete. */
function onlyUpdates(analysis: Analysis, ids: readonly string[]): boolean {
  let updates = 0;
  const stack = [...ids];
  while (stack.length > 0) {
    const x: ModuleNode = analysis.module(stack.pop()!);
    for (const flow of nestedFlows(x, { enabledOnly: true })) stack.push(...flow);
    const cls = classify(x);
    if (cls.role === 'delete') return false;
    if (cls.role !== 'write') continue;
    const update = cls.http
      ? ['PUT', 'PATCH'].includes(httpMethod(x))
      : cls.effect === 'write' && UPDATE_VERB.test(actionWords(x.action).filter((w) => w !== 'action')[0] ?? '');
    if (!update) return false;
    updates++;
  }
  return updates > 0;
}
