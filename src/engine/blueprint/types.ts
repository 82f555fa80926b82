/** @module engine/blueprint/types: the parsed scenario graph every policy reads (never raw JSON). */

import type { ModuleClass } from './classify.js';

/** A plain JSON value as found in a blueprint. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** Where a module sits: the top-level flow, a router route, or an error-handler route (`onerror`). */
export type ModuleContainer = 'flow' | 'route' | 'onerror';

/**
 * One condition group list of a Make filter: OR of AND-groups, as in the blueprint
 * (`filter.conditions = [[c1, c2], [c3]]`, source: corpus FORMAT.md "Routers and filters").
 */
export interface ModuleFilter {
  readonly name: string;
  readonly conditions: readonly (readonly JsonObject[])[];
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
  /** Router nesting depth: 0 on the top-level flow, +1 per enclosing router route. */
  readonly depth: number;
  readonly container: ModuleContainer;
  /** Id of the router (for `route`) or failing module (for `onerror`) this module hangs off. */
  readonly parentId: string | null;
  /** Route index within the parent router, for modules on a route. */
  readonly routeIndex: number | null;
  /** Position within its own flow array (0-based). */
  readonly index: number;
  /** Position in `ScenarioGraph.modules` (document order, 0-based): an index for per-module arrays. */
  readonly ordinal: number;
  /** Ids of the modules of this module's `onerror` route, in order. */
  readonly errorHandlerIds: readonly string[];
  /** Router routes: the ids of each route's modules, and whether the route is disabled. */
  readonly routes: readonly { readonly moduleIds: readonly string[]; readonly disabled: boolean }[];
  /** Raw `metadata` object (designer, restore, expect, interface...), for policies that need it. */
  readonly metadata: JsonObject | null;
  /**
   * Memo of `classify(node)`, written by `classify` only (`undefined` until first asked). A slot on
   * the node rather than a WeakMap keyed by it: WeakMap lookups on each evaluation's short-lived
   * nodes cost more than classifying (make `joseph19820124` bench, about 60 µs of 450 per evaluation).
   */
  classification?: ModuleClass | undefined;
}

/** A directed edge of the canvas graph. */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: 'next' | 'route' | 'error';
  /** Route index for `route` edges. */
  readonly routeIndex?: number;
  /** Filter name of the route's first module, for `route` edges. */
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
  /** All modules in document order (depth-first: a module, its onerror route, its routes). */
  readonly modules: readonly ModuleNode[];
  readonly byId: ReadonlyMap<string, ModuleNode>;
  readonly edges: readonly GraphEdge[];
  readonly settings: ScenarioSettings;
  /** Ids of the top-level flow, in order; the first is the trigger when there is one. */
  readonly topLevelIds: readonly string[];
  /** Deepest router nesting found (0 = no router). */
  readonly maxDepth: number;
  /**
   * The blueprint object as given, read-only. Only `Analysis.allStrings()` reads it, to reach every
   * string a blueprint carries (filters, module and scenario `metadata`, `io`, unknown keys); policies
   * read the parsed fields above.
   */
  readonly raw: Readonly<JsonObject>;
}
