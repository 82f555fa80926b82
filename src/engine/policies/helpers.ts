/** @module engine/policies/helpers: small helpers shared by policy files (formatting, flow order). */
import type { ModuleNode } from '../blueprint/types.js';
import type { Finding, PolicyOutcome } from './types.js';
import type { Analysis } from '../analysis.js';
import { flowOf, mergeAfter, nestedFlows, subtreeOf } from '../blueprint/flows.js';

/** `**Label** (module 7, \`http:ActionSendData\`)` for remediation steps. */
export function moduleRef(m: ModuleNode): string {
  return `**${m.name}** (module ${m.id}, \`${m.type}\`)`;
}

/** The field path of a pointer relative to its module (`/flow/1/mapper/headers/0/value` → `mapper.headers[0].value`). */
export function fieldPath(module: ModuleNode, pointer: string): string {
  const rel = pointer.startsWith(module.pointer) ? pointer.slice(module.pointer.length + 1) : pointer;
  return rel
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, t) => (/^\d+$/.test(t) ? `${acc}[${t}]` : acc ? `${acc}.${t}` : t), '');
}

/** The modules of an outcome's findings, unique, in finding order. */
export function findingModules(outcome: PolicyOutcome, analysis: Analysis): ModuleNode[] {
  const seen = new Set<string>();
  const out: ModuleNode[] = [];
  for (const f of outcome.findings) {
    if (!seen.has(f.moduleId)) {
      seen.add(f.moduleId);
      out.push(analysis.module(f.moduleId));
    }
  }
  return out;
}

/** `fail` with the given findings, or `null` when there are none. */
export function failWith(findings: Finding[], summary: (n: number) => string): PolicyOutcome | null {
  return findings.length === 0 ? null : { status: 'fail', findings, summary: summary(findings.length) };
}

/**
 * Modules that run after `m` on its own flow, and everything nested under them and under `m` (router
 * routes, if/else branches, agent tools): what a filter on `m` gates, besides `m` itself. When `m`'s
 * flow is an if/else branch that rejoins at a Merge module, the Merge module and what follows it run
 * after `m` too, up through enclosing branches. Error-handler routes are not included.
 */
export function downstreamOf(m: ModuleNode, analysis: Analysis): ModuleNode[] {
  const graph = analysis.graph;
  const later: string[] = [];
  for (const flow of nestedFlows(m)) later.push(...flow);
  for (let at: ModuleNode | undefined = m, hops = 0; at && hops < 64; hops++) {
    later.push(...flowOf(graph, at).slice(at.index + 1));
    const parent: ModuleNode | undefined =
      at.container === 'branch' && at.parentId !== null ? graph.byId.get(at.parentId) : undefined;
    const rejoins: boolean = parent !== undefined && parent.branches[at.routeIndex ?? 0]?.merge === true;
    at = rejoins && parent && mergeAfter(graph, parent) !== null ? parent : undefined;
  }
  return subtreeOf(graph, later);
}
