/** @module engine/policies/di/shared: where a module sits in error routes and who reads its output (shared by the DI policies). */
import type { Analysis } from '../../analysis.js';
import type { ModuleFilter, ModuleNode } from '../../blueprint/types.js';
import { classify } from '../../blueprint/classify.js';

/** Deepest chain of parents walked (the parser caps nesting at 64). */
const MAX_HOPS = 64;

/**
 * True when `x` sits in the error-handler route of module `ownerId`, however deeply nested (a router
 * or a handler of its own inside that route included).
 */
export function inErrorRouteOf(byId: ReadonlyMap<string, ModuleNode>, x: ModuleNode, ownerId: string): boolean {
  for (
    let at: ModuleNode | undefined = x, hops = 0;
    at && hops < MAX_HOPS;
    at = at.parentId ? byId.get(at.parentId) : undefined, hops++
  ) {
    if (at.container === 'onerror' && at.parentId === ownerId) return true;
  }
  return false;
}

/** True for a module of any error-handler route, however deeply its routes nest (it runs only on a failure). */
export function inAnyErrorRoute(byId: ReadonlyMap<string, ModuleNode>, m: ModuleNode): boolean {
  for (
    let at: ModuleNode | undefined = m, hops = 0;
    at && hops < MAX_HOPS;
    at = at.parentId ? byId.get(at.parentId) : undefined, hops++
  ) {
    if (at.container === 'onerror') return true;
  }
  return false;
}

/**
 * True when a module outside `m`'s own error route maps or filters on `m`'s output
 * (`DataFlow.readersOf`); the error route reading `{{m.error.message}}` reads the failure, not the output.
 */
export function outputRead(analysis: Analysis, m: ModuleNode): boolean {
  return analysis
    .dataflow()
    .readersOf(m.id)
    .some((id) => !inErrorRouteOf(analysis.graph.byId, analysis.module(id), m.id));
}

/** True when a filter has at least one condition (a filter with only a name passes every bundle). */
export function hasConditions(filter: ModuleFilter | null): filter is ModuleFilter {
  return filter !== null && filter.conditions.some((g) => g.length > 0);
}

/**
 * The filter on the first module of `m`'s error-handler route, when it has conditions: only errors
 * that pass it are handled; any other error is treated as if the module had no error-handler route
 * (Make Help, *Advanced error handling*: "If an error does not pass through the filter, it will be
 * treated as if there is no error handler route defined for the given module"). `null` when the
 * route takes every error or there is none.
 */
export function errorRouteFilter(analysis: Analysis, m: ModuleNode): ModuleFilter | null {
  const head = m.errorHandlerIds[0];
  if (head === undefined) return null;
  const filter = analysis.module(head).filter;
  return hasConditions(filter) ? filter : null;
}

/** The module whose error route holds `m` (the nearest enclosing one), `null` outside error routes. */
export function failedModuleOf(byId: ReadonlyMap<string, ModuleNode>, m: ModuleNode): ModuleNode | null {
  for (
    let at: ModuleNode | undefined = m, hops = 0;
    at && hops < MAX_HOPS;
    at = at.parentId ? byId.get(at.parentId) : undefined, hops++
  ) {
    if (at.container === 'onerror') return at.parentId ? (byId.get(at.parentId) ?? null) : null;
  }
  return null;
}

/** The ids of the flow a module sits in (top level, a router route, an error handler), in order. */
export function flowOf(analysis: Analysis, m: ModuleNode): readonly string[] {
  if (m.parentId === null) return analysis.graph.topLevelIds;
  const parent = analysis.module(m.parentId);
  return m.container === 'onerror' ? parent.errorHandlerIds : (parent.routes[m.routeIndex ?? 0]?.moduleIds ?? []);
}

/**
 * True when `m` runs once per item: an iterator or repeater runs before it on its path (earlier in its
 * flow or an enclosing one) and no aggregator after that iterator has gathered the items again.
 */
export function runsPerItem(analysis: Analysis, m: ModuleNode): boolean {
  const before: ModuleNode[] = [];
  for (
    let at: ModuleNode | undefined = m, hops = 0;
    at && hops < MAX_HOPS;
    at = at.parentId === null ? undefined : analysis.module(at.parentId), hops++
  )
    before.unshift(
      ...flowOf(analysis, at)
        .slice(0, at.index)
        .map((id) => analysis.module(id)),
    );
  let open = 0;
  for (const x of before) {
    const flow = classify(x).flow;
    if (flow === 'iterator' || flow === 'repeater') open++;
    else if (flow === 'aggregator') open = Math.max(0, open - 1);
  }
  return open > 0;
}
