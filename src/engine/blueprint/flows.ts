/**
 * @module engine/blueprint/flows: the flows of a parsed scenario, for the analyses that walk them
 * (reachability, layout, policies): the flow a module sits in, and the flows nested in a module
 * (router routes, if/else branches, agent tools). One place that knows every container, so that no
 * caller walks `routes` alone (docs/engine.md "Blueprint coverage (issue 32)").
 */
import type { ModuleNode, ScenarioGraph } from './types.js';
import { MERGE_MODULE } from './parse.js';

/** Which nested flows `nestedFlows` returns. */
export interface NestedOptions {
  /** Leave out disabled router routes and if/else branches (they never run). Default false. */
  readonly enabledOnly?: boolean;
  /** Include the module's error-handler route. Default false. */
  readonly errorHandler?: boolean;
}

/**
 * The ids of the flow a module sits in, in order: the top-level flow, its route, branch, tool or
 * error handler, or its chain of orphans. `[]` when its parent is unknown (never for a parsed graph).
 */
export function flowOf(graph: ScenarioGraph, m: ModuleNode): readonly string[] {
  if (m.container === 'flow') return graph.topLevelIds;
  if (m.container === 'orphan') return graph.orphanIds[m.routeIndex ?? 0] ?? [];
  const parent = m.parentId === null ? undefined : graph.byId.get(m.parentId);
  if (!parent) return [];
  const i = m.routeIndex ?? 0;
  switch (m.container) {
    case 'onerror':
      return parent.errorHandlerIds;
    case 'route':
      return parent.routes[i]?.moduleIds ?? [];
    case 'branch':
      return parent.branches[i]?.moduleIds ?? [];
    case 'tool':
      // Flow tools come first in `agent.tools`, in `tools[]` order (agent.ts).
      return parent.agent?.tools[i]?.moduleIds ?? [];
  }
}

/**
 * The module id lists of the flows nested in `m`, in document order: its router routes, its if/else
 * branches and its agent's tool flows (what runs as part of `m`), and with `errorHandler` its
 * error-handler route first.
 */
export function nestedFlows(m: ModuleNode, options: NestedOptions = {}): (readonly string[])[] {
  const out: (readonly string[])[] = [];
  if (options.errorHandler && m.errorHandlerIds.length > 0) out.push(m.errorHandlerIds);
  for (const r of m.routes) if (!(options.enabledOnly && r.disabled)) out.push(r.moduleIds);
  for (const b of m.branches) if (!(options.enabledOnly && b.disabled)) out.push(b.moduleIds);
  for (const t of m.agent?.tools ?? []) if (t.moduleIds.length > 0) out.push(t.moduleIds);
  return out;
}

/**
 * `m` and every module nested in it, however deep (routes, branches, tools; error handlers with
 * `errorHandler`), in no particular order. Iterative: nesting may be deep.
 */
export function subtreeOf(graph: ScenarioGraph, ids: readonly string[], options: NestedOptions = {}): ModuleNode[] {
  const out: ModuleNode[] = [];
  const stack = [...ids];
  while (stack.length > 0) {
    const x = graph.byId.get(stack.pop()!);
    if (!x) continue;
    out.push(x);
    for (const flow of nestedFlows(x, options)) stack.push(...flow);
  }
  return out;
}

/**
 * The Merge module that rejoins the branches of an if/else (the module right after it in its flow),
 * `null` when none follows it.
 */
export function mergeAfter(graph: ScenarioGraph, ifElse: ModuleNode): ModuleNode | null {
  const next = flowOf(graph, ifElse)[ifElse.index + 1];
  const node = next === undefined ? undefined : graph.byId.get(next);
  return node && node.type === MERGE_MODULE && ifElse.branches.length > 0 ? node : null;
}
