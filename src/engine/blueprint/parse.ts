/** @module engine/blueprint/parse: Make.com blueprint JSON → ScenarioGraph, once per evaluation. */
import type { EngineError } from '../errors.js';
import type { AgentSettings, ToolFlow } from './agent.js';
import type {
  GraphEdge,
  IfElseBranch,
  Json,
  JsonObject,
  ModuleContainer,
  ModuleFilter,
  ModuleNode,
  ScenarioGraph,
  ScenarioSettings,
} from './types.js';
import { BlueprintError, pointerToken } from '../errors.js';
import { boundedMemo } from '../memo.js';
import { AGENT_APPS, readAgentSettings } from './agent.js';
import { parseModuleName } from './module-name.js';

/** Deepest nesting of routes, branches, tools and error handlers accepted (corpus max is ~7); guards the recursion. */
export const MAX_NESTING = 64;
/** Most modules accepted in one blueprint (corpus max is 195). */
export const MAX_MODULES = 5000;
/** Make's Merge module, which rejoins the branches of the if/else before it (Make help "If-else and Merge"). */
export const MERGE_MODULE = 'builtin:BasicMerge';
/** Where an export keeps canvas modules not connected to the flow: chains of modules (corpus make-more, make-extra). */
export const ORPHANS_POINTER = '/metadata/designer/orphans';

/** Result of `parseBlueprint`: a graph, or an engine error with the pointer of the first problem. */
export type ParseResult =
  { readonly ok: true; readonly graph: ScenarioGraph } | { readonly ok: false; readonly error: EngineError };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const asBool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
const asNum = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Parses a Make.com (or old Integromat) scenario export into a ScenarioGraph.
 * Shape (design notes "Blueprints and scenarios"; corpus FORMAT.md): `{ name, flow: [module...], metadata }`,
 * modules `{ id, module: "app:Action", version, parameters, mapper, metadata, filter?, routes?, onerror?,
 * branches?, tools? }`. Every module is walked wherever Make keeps it: router `routes[].flow`, error
 * handlers `onerror`, if/else `branches[].flow`, agent `tools[].flow`, and the canvas modules not
 * connected to the flow, `metadata.designer.orphans` (chains of modules); module ids are unique across
 * all of them (docs/engine.md "Blueprint coverage (issue 32)").
 * Every module name Make exports is accepted (custom apps `app#<name>-<id>:<action>` included, see
 * `parseModuleName`); an app the engine does not know is classified, never refused. Unknown keys are ignored. Never throws: invalid input returns `{ ok: false, error }` whose issue
 * carries the RFC 6901 pointer of the first problem (e.g. `/flow/2/module`).
 * @param input the blueprint as parsed JSON (any value).
 */
export function parseBlueprint(input: unknown): ParseResult {
  try {
    return { ok: true, graph: new Parser().parse(input) };
  } catch (err) {
    if (err instanceof BlueprintError) {
      return {
        ok: false,
        error: {
          code: 'blueprint_invalid',
          message: err.message,
          issues: [{ pointer: err.pointer, message: err.message }],
        },
      };
    }
    throw err;
  }
}

/**
 * Turns `google-sheets:addRow` into `Google Sheets · Add Row` (the default module name when no custom
 * label is set); a custom app's `app#courageousteams-614494:getOrder` into `Courageousteams · Get Order`. Memoised.
 */
export const humanizeModuleType: (type: string) => string = boundedMemo(10_000, (type) => computeHumanized(type));

function computeHumanized(type: string): string {
  const parsed = parseModuleName(type);
  const [app = '', action = ''] = parsed ? [parsed.app, parsed.action] : type.split(':');
  const appName = app.split(/[-_]/).filter(Boolean).map(capitalize).join(' ');
  const actionName = action
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/^./, (c) => c.toUpperCase());
  return actionName ? `${appName} · ${actionName}` : appName;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

class Parser {
  private readonly modules: ModuleNode[] = [];
  private readonly byId = new Map<string, ModuleNode>();
  private readonly edges: GraphEdge[] = [];
  private maxDepth = 0;
  private unnumbered = 0;

  parse(input: unknown): ScenarioGraph {
    if (!isObject(input)) throw new BlueprintError('', 'blueprint must be a JSON object with a "flow" array');
    const name = input['name'];
    if (name !== undefined && name !== null && typeof name !== 'string')
      throw new BlueprintError('/name', 'name must be a string');
    const flow = input['flow'];
    if (!Array.isArray(flow)) throw new BlueprintError('/flow', 'flow must be an array of modules');
    const metadata = input['metadata'];
    if (metadata !== undefined && metadata !== null && !isObject(metadata))
      throw new BlueprintError('/metadata', 'metadata must be an object');
    const topLevelIds = this.walkFlow(flow, '/flow', {
      depth: 0,
      container: 'flow',
      parentId: null,
      routeIndex: null,
      nesting: 0,
    });
    const orphanIds = this.walkOrphans(isObject(metadata) ? metadata : null);
    return {
      name: typeof name === 'string' && name.trim() !== '' ? name : 'Untitled scenario',
      modules: this.modules,
      byId: this.byId,
      edges: this.edges,
      settings: readSettings(isObject(metadata) ? metadata : null),
      topLevelIds,
      orphanIds,
      maxDepth: this.maxDepth,
      raw: input,
    };
  }

  private walkFlow(flow: Json[], pointer: string, at: Placement): string[] {
    if (at.nesting > MAX_NESTING)
      throw new BlueprintError(pointer, `routes and error handlers nest deeper than ${MAX_NESTING} levels`);
    const ids: string[] = [];
    let previous: ModuleNode | null = null;
    flow.forEach((raw, index) => {
      const node = this.readModule(raw, `${pointer}/${index}`, at, index);
      // Make runs an if/else's branch, then the Merge module after it: no direct link between the two.
      if (previous && previous.branches.length > 0 && node.type === MERGE_MODULE) this.mergeEdges(previous, node);
      else if (previous) this.edges.push({ from: previous.id, to: node.id, kind: 'next' });
      ids.push(node.id);
      previous = node;
    });
    return ids;
  }

  /** A `merge` edge from the end of each branch that rejoins (the if/else itself for an empty branch) to the Merge module. */
  private mergeEdges(ifElse: ModuleNode, merge: ModuleNode): void {
    ifElse.branches.forEach((branch, routeIndex) => {
      if (!branch.merge) return;
      const last = branch.moduleIds[branch.moduleIds.length - 1] ?? ifElse.id;
      this.edges.push({ from: last, to: merge.id, kind: 'merge', routeIndex });
    });
  }

  /**
   * The orphans of `metadata.designer.orphans`: each entry a chain of modules (an array, as Make
   * exports them) or one module object; other entries and a missing list are ignored (the list is
   * canvas state). Returns the ids of each chain.
   */
  private walkOrphans(metadata: JsonObject | null): string[][] {
    const designer = metadata && isObject(metadata['designer']) ? metadata['designer'] : null;
    const orphans = designer?.['orphans'];
    if (!Array.isArray(orphans)) return [];
    return orphans.map((chain, routeIndex) => {
      const at: Placement = { depth: 0, container: 'orphan', parentId: null, routeIndex, nesting: 1 };
      const pointer = `${ORPHANS_POINTER}/${routeIndex}`;
      if (Array.isArray(chain)) return this.walkFlow(chain, pointer, at);
      return isObject(chain) ? [this.readModule(chain, pointer, at, 0).id] : [];
    });
  }

  private readModule(raw: Json, pointer: string, at: Placement, index: number): ModuleNode {
    if (!isObject(raw)) throw new BlueprintError(pointer, 'module must be an object');
    if (this.modules.length >= MAX_MODULES) throw new BlueprintError(pointer, `more than ${MAX_MODULES} modules`);
    const rawId = raw['id'];
    // Empty canvas slots (`placeholder:Placeholder`) are exported with `"id": null` (corpus FORMAT.md).
    const unnumbered = rawId === null || rawId === undefined;
    if (
      !unnumbered &&
      !(typeof rawId === 'number' && Number.isInteger(rawId)) &&
      !(typeof rawId === 'string' && /^\d{1,15}$/.test(rawId))
    ) {
      throw new BlueprintError(`${pointer}/id`, 'module id must be an integer');
    }
    const id = unnumbered ? `unnumbered-${++this.unnumbered}` : String(rawId);
    const first = this.byId.get(id);
    if (first) throw new BlueprintError(`${pointer}/id`, `duplicate module id ${id} (first at ${first.pointer})`);
    const type = raw['module'];
    if (typeof type !== 'string')
      throw new BlueprintError(`${pointer}/module`, 'module must be a string of the form "app:Action"');
    const name = parseModuleName(type);
    if (!name)
      throw new BlueprintError(
        `${pointer}/module`,
        'module must name a module: "app:Action" or "app#<custom-app>:<action>", without spaces',
      );
    const { app, action, custom } = name;
    const meta = isObject(raw['metadata']) ? raw['metadata'] : null;
    const designer = meta && isObject(meta['designer']) ? meta['designer'] : null;
    const label =
      designer && typeof designer['name'] === 'string' && designer['name'].trim() !== '' ? designer['name'] : null;
    const x = asNum(designer?.['x']);
    const y = asNum(designer?.['y']);
    const routesRaw = raw['routes'];
    const onerrorRaw = raw['onerror'];
    const branchesRaw = raw['branches'];
    const toolsRaw = raw['tools'];
    if (routesRaw !== undefined && routesRaw !== null && !Array.isArray(routesRaw))
      throw new BlueprintError(`${pointer}/routes`, 'routes must be an array');
    if (onerrorRaw !== undefined && onerrorRaw !== null && !Array.isArray(onerrorRaw))
      throw new BlueprintError(`${pointer}/onerror`, 'onerror must be an array of modules');
    if (branchesRaw !== undefined && branchesRaw !== null && !Array.isArray(branchesRaw))
      throw new BlueprintError(`${pointer}/branches`, 'branches must be an array');
    if (toolsRaw !== undefined && toolsRaw !== null && !Array.isArray(toolsRaw))
      throw new BlueprintError(`${pointer}/tools`, 'tools must be an array');
    const errorHandlerIds: string[] = [];
    const routes: { moduleIds: string[]; disabled: boolean }[] = [];
    const branches: IfElseBranch[] = [];
    const mapper = isObject(raw['mapper']) ? raw['mapper'] : null;
    const outputs = type === MERGE_MODULE && Array.isArray(raw['outputs']) ? raw['outputs'].filter(isObject) : [];
    const node: ModuleNode = {
      id,
      type,
      app,
      action,
      custom,
      version: asNum(raw['version']),
      label,
      name: label ?? humanizeModuleType(type),
      parameters: isObject(raw['parameters']) ? raw['parameters'] : null,
      mapper,
      filter: readFilter(raw['filter'], `${pointer}/filter`),
      position: x !== null && y !== null ? { x, y } : null,
      pointer,
      depth: at.depth,
      container: at.container,
      parentId: at.parentId,
      routeIndex: at.routeIndex,
      index,
      ordinal: this.modules.length,
      errorHandlerIds,
      routes,
      branches,
      // Set once its tools are walked (below), so that the module comes before its tools in document order.
      agent: null,
      outputs,
      metadata: meta,
      // Filled by classify(); present from the start so that filling it does not change the node's shape.
      classification: undefined,
    };
    this.modules.push(node);
    this.byId.set(id, node);
    this.maxDepth = Math.max(this.maxDepth, at.depth);
    if (Array.isArray(onerrorRaw) && onerrorRaw.length > 0) {
      errorHandlerIds.push(
        ...this.walkFlow(onerrorRaw, `${pointer}/onerror`, {
          depth: at.depth,
          container: 'onerror',
          parentId: id,
          routeIndex: null,
          nesting: at.nesting + 1,
        }),
      );
      this.edges.push({ from: id, to: errorHandlerIds[0]!, kind: 'error' });
    }
    if (Array.isArray(routesRaw)) {
      routesRaw.forEach((route, routeIndex) => {
        const routePointer = `${pointer}/routes/${routeIndex}`;
        if (!isObject(route)) throw new BlueprintError(routePointer, 'route must be an object with a "flow" array');
        const routeFlow = route['flow'] ?? [];
        if (!Array.isArray(routeFlow))
          throw new BlueprintError(`${routePointer}/flow`, 'route flow must be an array of modules');
        const moduleIds = this.walkFlow(routeFlow, `${routePointer}/flow`, {
          depth: at.depth + 1,
          container: 'route',
          parentId: id,
          routeIndex,
          nesting: at.nesting + 1,
        });
        routes.push({ moduleIds, disabled: route['disabled'] === true });
        const head = moduleIds[0] !== undefined ? this.byId.get(moduleIds[0]) : undefined;
        if (head) {
          this.edges.push({
            from: id,
            to: head.id,
            kind: 'route',
            routeIndex,
            ...(head.filter ? { filter: head.filter.name } : {}),
          });
        }
      });
    }
    if (Array.isArray(branchesRaw))
      branchesRaw.forEach((branch, routeIndex) => branches.push(this.readBranch(branch, id, pointer, at, routeIndex)));
    if (Array.isArray(toolsRaw) || AGENT_APPS.has(app)) {
      const tools = Array.isArray(toolsRaw) ? toolsRaw.map((tool, i) => this.readTool(tool, id, pointer, at, i)) : [];
      (node as { agent: AgentSettings | null }).agent = readAgentSettings(app, mapper, pointer, tools);
    }
    return node;
  }

  /** One if/else branch (`branches[i]`): its flow, condition and an edge from the if/else to its first module. */
  private readBranch(branch: Json, parentId: string, parent: string, at: Placement, routeIndex: number): IfElseBranch {
    const pointer = `${parent}/branches/${routeIndex}`;
    if (!isObject(branch)) throw new BlueprintError(pointer, 'branch must be an object with a "flow" array');
    const flow = branch['flow'] ?? [];
    if (!Array.isArray(flow)) throw new BlueprintError(`${pointer}/flow`, 'branch flow must be an array of modules');
    const moduleIds = this.walkFlow(flow, `${pointer}/flow`, {
      depth: at.depth + 1,
      container: 'branch',
      parentId,
      routeIndex,
      nesting: at.nesting + 1,
    });
    this.maxDepth = Math.max(this.maxDepth, at.depth + 1);
    const label = typeof branch['label'] === 'string' ? branch['label'] : '';
    const conditions = branch['conditions'];
    const kind =
      branch['type'] === 'else'
        ? 'else'
        : branch['type'] === 'condition' || Array.isArray(conditions)
          ? 'condition'
          : 'else';
    const condition =
      kind === 'condition'
        ? {
            name: label,
            conditions: Array.isArray(conditions)
              ? conditions.map((g) => (Array.isArray(g) ? g.filter(isObject) : []))
              : [],
          }
        : null;
    if (moduleIds[0] !== undefined)
      this.edges.push({
        from: parentId,
        to: moduleIds[0],
        kind: 'branch',
        routeIndex,
        ...(condition ? { filter: label } : {}),
      });
    return {
      moduleIds,
      kind,
      label,
      condition,
      merge: branch['merge'] !== false,
      disabled: branch['disabled'] === true,
      pointer,
    };
  }

  /** One agent tool (`tools[i]`): its flow and an edge from the agent to its first module. */
  private readTool(tool: Json, parentId: string, parent: string, at: Placement, routeIndex: number): ToolFlow {
    const pointer = `${parent}/tools/${routeIndex}`;
    if (!isObject(tool)) throw new BlueprintError(pointer, 'tool must be an object with a "flow" array');
    const flow = tool['flow'] ?? [];
    if (!Array.isArray(flow)) throw new BlueprintError(`${pointer}/flow`, 'tool flow must be an array of modules');
    const moduleIds = this.walkFlow(flow, `${pointer}/flow`, {
      depth: at.depth,
      container: 'tool',
      parentId,
      routeIndex,
      nesting: at.nesting + 1,
    });
    if (moduleIds[0] !== undefined) this.edges.push({ from: parentId, to: moduleIds[0], kind: 'tool', routeIndex });
    return { raw: tool, moduleIds, pointer };
  }
}

interface Placement {
  readonly depth: number;
  readonly container: ModuleContainer;
  readonly parentId: string | null;
  readonly routeIndex: number | null;
  readonly nesting: number;
}

function readFilter(raw: Json | undefined, pointer: string): ModuleFilter | null {
  if (raw === undefined || raw === null) return null;
  if (!isObject(raw)) throw new BlueprintError(pointer, 'filter must be an object');
  const conditions = Array.isArray(raw['conditions']) ? raw['conditions'] : [];
  const groups = conditions.map((group) => (Array.isArray(group) ? group.filter(isObject) : []));
  return { name: typeof raw['name'] === 'string' ? raw['name'] : '', conditions: groups };
}

function readSettings(metadata: JsonObject | null): ScenarioSettings {
  const s = metadata && isObject(metadata['scenario']) ? metadata['scenario'] : {};
  return {
    roundtrips: asNum(s['roundtrips']),
    maxErrors: asNum(s['maxErrors']),
    autoCommit: asBool(s['autoCommit']),
    autoCommitTriggerLast: asBool(s['autoCommitTriggerLast']),
    sequential: asBool(s['sequential']),
    confidential: asBool(s['confidential']),
    dataloss: asBool(s['dataloss']),
    dlq: asBool(s['dlq']),
    freshVariables: asBool(s['freshVariables']),
    instant: asBool(metadata?.['instant']),
    zone: typeof metadata?.['zone'] === 'string' ? metadata['zone'] : null,
  };
}

export { pointerToken };
