/** @module engine/blueprint/types: the parsed scenario graph every policy reads (never raw JSON). */

import type { AgentSettings } from './agent.js';
import type { ModuleClass } from './classify.js';

/** A plain JSON value as found in a blueprint. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/**
 * Where a module sits: the top-level flow, a router route (`routes[].flow`), an error-handler route
 * (`onerror`), an if/else branch (`builtin:BasicIfElse` `branches[].flow`), an AI agent's tool
 * (`tools[].flow`), or a chain of canvas modules not connected to the flow
 * (`metadata.designer.orphans`, which Make never runs). docs/engine.md "Blueprint coverage (issue 32)".
 */
export type ModuleContainer = 'flow' | 'route' | 'onerror' | 'branch' | 'tool' | 'orphan';

/**
 * One condition group list of a Make filter: OR of AND-groups, as in the blueprint
 * (`filter.conditions = [[c1, c2], [c3]]`, source: corpus FORMAT.md "Routers and filters").
 */
export interface ModuleFilter {
  readonly name: string;
  readonly conditions: readonly (readonly JsonObject[])[];
}

/**
 * One branch of an if/else module (`builtin:BasicIfElse`, Make help "If-else and Merge"): Make runs
 * the first branch, in order, whose condition passes, else the `else` branch; a branch with `merge`
 * rejoins the flow at the `builtin:BasicMerge` module that follows the if/else.
 */
export interface IfElseBranch {
  /** Ids of the branch's modules (`branches[i].flow`), in order. */
  readonly moduleIds: readonly string[];
  /** `condition` for a branch with conditions, `else` for the fallback branch (`type: "else"`, no conditions). */
  readonly kind: 'condition' | 'else';
  /** The branch's label (`''` when none). */
  readonly label: string;
  /** The branch's condition as a filter named by its label (`branches[i].conditions`); `null` for an else branch. */
  readonly condition: ModuleFilter | null;
  /** The branch rejoins at the Merge module after the if/else (`merge`, default true). */
  readonly merge: boolean;
  /** A branch switched off in the editor (`disabled: true`). */
  readonly disabled: boolean;
  /** RFC 6901 pointer of the branch object (`/flow/1/branches/0`). */
  readonly pointer: string;
}

/** One module of a scenario, wherever it is nested. */
export interface ModuleNode {
  /** The module's id as a string (`"7"`); unique within a valid scenario. */
  readonly id: string;
  /** Module name as exported, `app:Action` (e.g. `http:ActionSendData`, `app#courageousteams-614494:getOrder`). */
  readonly type: string;
  /** App part of the type (`http`); for a custom app its name without `app#` and Make's id suffix (`courageousteams`). */
  readonly app: string;
  /** Action part of the type (`ActionSendData`). */
  readonly action: string;
  /** True for a custom app module (`app#<name>-<id>:<action>`): private to its owner's organisation. */
  readonly custom: boolean;
  /** App module version, `null` when absent. */
  readonly version: number | null;
  /** Custom label from `metadata.designer.name`, `null` when the author kept the default. */
  readonly label: string | null;
  /** Display name: the custom label, else a humanised type ("Http · Action Send Data"). */
  readonly name: string;
  readonly parameters: JsonObject | null;
  readonly mapper: JsonObject | null;
  readonly filter: ModuleFilter | null;
  /** Canvas position from `metadata.designer`, `null` when absent. */
  readonly position: { readonly x: number; readonly y: number } | null;
  /** RFC 6901 JSON Pointer of the module object in the blueprint (`/flow/1/routes/0/flow/2`). */
  readonly pointer: string;
  /**
   * Nesting depth: 0 on the top-level flow and on orphans, +1 per enclosing router route or if/else
   * branch (both split the flow); error handlers and agent tools keep their module's depth.
   */
  readonly depth: number;
  readonly container: ModuleContainer;
  /**
   * Id of the module this one hangs off: the router (`route`), the failing module (`onerror`), the
   * if/else (`branch`) or the agent (`tool`); `null` on the top-level flow and on orphans.
   */
  readonly parentId: string | null;
  /**
   * Index of the module's route, branch or tool within its parent (`route`, `branch`, `tool`), or of
   * its chain within `metadata.designer.orphans` (`orphan`); `null` on the top-level flow and in error handlers.
   */
  readonly routeIndex: number | null;
  /** Position within its own flow array (0-based). */
  readonly index: number;
  /** Position in `ScenarioGraph.modules` (document order, 0-based): an index for per-module arrays. */
  readonly ordinal: number;
  /** Ids of the modules of this module's `onerror` route, in order. */
  readonly errorHandlerIds: readonly string[];
  /** Router routes: the ids of each route's modules, and whether the route is disabled. */
  readonly routes: readonly { readonly moduleIds: readonly string[]; readonly disabled: boolean }[];
  /** If/else branches (`builtin:BasicIfElse`), in order; empty for other modules. */
  readonly branches: readonly IfElseBranch[];
  /**
   * AI agent settings and tools (`ai-agent:*`, `ai-local-agent:*`, or any module with `tools[].flow`;
   * `agent.ts`), `null` for other modules.
   */
  readonly agent: AgentSettings | null;
  /**
   * Output mappings of a Merge module (`builtin:BasicMerge` `outputs`: `{ name, mappings[] }`, one
   * mapping per branch), `[]` for other modules. The Merge module passes on what the active branch gives it.
   */
  readonly outputs: readonly JsonObject[];
  /** Raw `metadata` object (designer, restore, expect, interface...), for policies that need it. */
  readonly metadata: JsonObject | null;
  /**
   * Memo of `classify(node)`, written by `classify` only (`undefined` until first asked). A slot on
   * the node rather than a WeakMap keyed by it: WeakMap lookups on each evaluation's short-lived
   * nodes cost more than classifying (make `joseph19820124` bench, about 60 µs of 450 per evaluation).
   */
  classification?: ModuleClass | undefined;
}

/**
 * Kinds of edge: `next` between neighbours of one flow; `route` from a router to a route's first
 * module; `error` from a module to its error handler; `branch` from an if/else to a branch's first
 * module; `merge` from a branch's last module (the if/else itself for an empty branch) to the Merge
 * module that follows the if/else; `tool` from an agent to a tool's first module (the agent calls
 * its tools, Make help "Make AI Agents").
 */
export type GraphEdgeKind = 'next' | 'route' | 'error' | 'branch' | 'merge' | 'tool';

/** A directed edge of the canvas graph. */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: GraphEdgeKind;
  /** Route, branch or tool index for `route`, `branch`, `merge` and `tool` edges. */
  readonly routeIndex?: number;
  /** Filter name of the route's first module (`route` edges), or the branch's label (`branch` edges of a branch with a condition). */
  readonly filter?: string;
}

/** Scenario settings from `metadata.scenario` (Make scenario settings; FORMAT.md "metadata"). */
export interface ScenarioSettings {
  readonly roundtrips: number | null;
  readonly maxErrors: number | null;
  readonly autoCommit: boolean | null;
  readonly autoCommitTriggerLast: boolean | null;
  readonly sequential: boolean | null;
  readonly confidential: boolean | null;
  /** "Enable data loss": drop an incomplete execution that cannot be stored. */
  readonly dataloss: boolean | null;
  /** "Allow storing of incomplete executions". */
  readonly dlq: boolean | null;
  readonly freshVariables: boolean | null;
  /** `metadata.instant`: true when the first module is an instant trigger. */
  readonly instant: boolean | null;
  /** `metadata.zone` (`eu1.make.com`...), `null` when absent. */
  readonly zone: string | null;
}

/** The whole parsed scenario. */
export interface ScenarioGraph {
  readonly name: string;
  /**
   * All modules in document order (depth-first: a module, its onerror route, its routes, its
   * branches, its tools), then the orphans (`metadata.designer.orphans`, chain by chain).
   */
  readonly modules: readonly ModuleNode[];
  readonly byId: ReadonlyMap<string, ModuleNode>;
  readonly edges: readonly GraphEdge[];
  readonly settings: ScenarioSettings;
  /** Ids of the top-level flow, in order; the first is the trigger when there is one. */
  readonly topLevelIds: readonly string[];
  /** Ids of each chain of orphan modules (`metadata.designer.orphans[i]`), in order: canvas modules Make never runs. */
  readonly orphanIds: readonly (readonly string[])[];
  /** Deepest nesting of router routes and if/else branches found (0 = none). */
  readonly maxDepth: number;
  /**
   * The blueprint object as given, read-only. Only `Analysis.allStrings()` reads it, to reach every
   * string a blueprint carries (filters, module and scenario `metadata`, `io`, unknown keys); policies
   * read the parsed fields above.
   */
  readonly raw: Readonly<JsonObject>;
}
