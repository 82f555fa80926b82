/**
 * @module engine/leaves: every string a blueprint carries, with its JSON Pointer, field name, section
 * and owning module: mapper, parameters, filters (name and condition operands, on modules and on the
 * first module of router routes; if/else branch conditions and Merge filters), module `metadata`
 * (restore, expect, interface, parameters, samples), unknown module keys (custom apps), and the
 * scenario's own `metadata` (designer samples, notes) and `io`. The modules of router routes, error
 * handlers, if/else branches, agent tools and the orphans of `metadata.designer.orphans` own their
 * strings. One iterative walk (blueprints may nest deep), children in document order.
 */
import type { Json, JsonObject, ModuleNode, ScenarioGraph } from './blueprint/types.js';
import { pointerToken } from './errors.js';

/**
 * Where a string sits: a module part (`filter` also holds an if/else branch's `conditions` and a
 * Merge module's per-branch `filters`; `metadata` is the module's UI state: designer, restore;
 * `schema` its field specs: `metadata.expect`, `metadata.interface`, `metadata.parameters` and the
 * `nested` specs `metadata.restore` keeps for a field, such as a sheet's columns), another module key
 * (`module`: custom-app keys), or a scenario-level part.
 */
export type LeafSection =
  'mapper' | 'parameters' | 'filter' | 'metadata' | 'schema' | 'module' | 'scenario-metadata' | 'io' | 'scenario';

/** Which strings to collect. */
export interface LeafOptions {
  /** Shortest string collected, in characters (default 0: all). */
  readonly minLength?: number;
  /** Sections collected (default: all); subtrees of other sections are not walked. */
  readonly sections?: ReadonlySet<LeafSection>;
}

/** One string value anywhere in a blueprint. */
export interface BlueprintLeaf {
  /**
   * The module the string belongs to; for a scenario-level string, the module it describes
   * (`metadata.designer.samples.<id>`, a note's `moduleIds[0]`), else `null`.
   */
  readonly module: ModuleNode | null;
  /** Absolute RFC 6901 JSON Pointer of the value (`/flow/2/filter/conditions/0/0/b`). */
  readonly pointer: string;
  readonly value: string;
  /**
   * The key it is stored under; for `{ name|key, value }` pairs (headers, query strings, variables) the
   * pair's `name`; for a filter condition's `b` operand, the last field of the `a` operand it is
   * compared with (`{{1.headers.x-api-key}}` → `x-api-key`).
   */
  readonly fieldName: string | null;
  readonly section: LeafSection;
}

/** Module keys that are sections of their own; other keys (except the ones below) are `module`. */
const MODULE_SECTIONS: ReadonlyMap<string, LeafSection> = new Map([
  ['mapper', 'mapper'],
  ['parameters', 'parameters'],
  ['filter', 'filter'],
  ['metadata', 'metadata'],
]);
/** Module keys that hold no data string: the module type (`http:ActionSendData`). */
const SKIPPED_MODULE_KEYS: ReadonlySet<string> = new Set(['module']);
/** Scenario keys that are sections of their own. */
const SCENARIO_SECTIONS: ReadonlyMap<string, LeafSection> = new Map([
  ['metadata', 'scenario-metadata'],
  ['io', 'io'],
]);
/**
 * Array keys whose object elements may be modules: the parser's flows (the top level, router routes,
 * if/else branches and agent tools are all `flow`), error routes, and the chains of orphans
 * (`metadata.designer.orphans[i]`, arrays inside the `orphans` array, whose elements inherit its name).
 */
const MODULE_ARRAYS: ReadonlySet<string> = new Set(['flow', 'onerror', 'orphans']);
/** Keys under an if/else branch (`branches[i]`) or a module that hold filter conditions: a branch's `conditions`, a Merge module's per-branch `filters`. */
const BRANCH_CONDITIONS = 'conditions';
const MERGE_FILTERS = 'filters';
/** Keys of a module's `metadata` that hold its field specs (corpus FORMAT.md "Module object"). */
const SCHEMA_KEYS: ReadonlySet<string> = new Set(['expect', 'interface', 'parameters']);
const SAMPLES_POINTER = '/metadata/designer/samples';
const VALUE = 1;
const NAME = 2;
const KEY = 4;
const A = 8;
const O = 16;
const MODULE_IDS = 32;
/** Flag of a key that changes how an object's strings are named or owned: `{name|key, value}` pairs, filter conditions `{a, o, b}`, notes' `moduleIds`. */
function specialKey(key: string): number {
  switch (key) {
    case 'value':
      return VALUE;
    case 'name':
      return NAME;
    case 'key':
      return KEY;
    case 'a':
      return A;
    case 'o':
      return O;
    case 'moduleIds':
      return MODULE_IDS;
    default:
      return 0;
  }
}

/** Escapes a key for a JSON Pointer only when it needs it (RFC 6901 §3). */
function token(key: string | number): string | number {
  return typeof key === 'number' || (key.indexOf('~') < 0 && key.indexOf('/') < 0) ? key : pointerToken(key);
}

/** The raw module objects of the graph, by identity: from each module's place (parent, container, index), else from its pointer. */
function rawModules(graph: ScenarioGraph): Map<object, ModuleNode> {
  const out = new Map<object, ModuleNode>();
  const byId = new Map<string, JsonObject>();
  const root = graph.raw as JsonObject;
  for (const m of graph.modules) {
    const parent = m.parentId === null ? root : byId.get(m.parentId);
    const list =
      m.container === 'flow'
        ? parent?.['flow']
        : m.container === 'onerror'
          ? parent?.['onerror']
          : m.container === 'route'
            ? routeFlow(parent?.['routes'], m.routeIndex)
            : m.container === 'branch'
              ? routeFlow(parent?.['branches'], m.routeIndex)
              : m.container === 'tool'
                ? routeFlow(parent?.['tools'], m.routeIndex)
                : undefined;
    // Orphans (and anything unexpected) are found by their pointer.
    let raw = Array.isArray(list) ? list[m.index] : undefined;
    if (!isObject(raw)) raw = resolve(root, m.pointer);
    if (isObject(raw)) {
      out.set(raw, m);
      byId.set(m.id, raw);
    }
  }
  return out;
}

function isObject(v: Json | undefined): v is JsonObject {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
}

/** The `flow` of entry `index` of a list of routes, branches or tools. */
function routeFlow(routes: Json | undefined, index: number | null): Json | undefined {
  const route = Array.isArray(routes) && index !== null ? routes[index] : undefined;
  return isObject(route) ? route['flow'] : undefined;
}

/** The value at an RFC 6901 pointer, or undefined. */
function resolve(root: JsonObject, pointer: string): Json | undefined {
  let at: Json | undefined = root;
  for (const t of pointer.split('/').slice(1)) {
    if (Array.isArray(at)) at = at[Number(t)];
    else if (isObject(at)) at = at[t.replace(/~1/g, '/').replace(/~0/g, '~')];
    else return undefined;
  }
  return at;
}

/** Last field of the first `{{...}}` reference in a filter operand: `{{1.headers.`X-Api-Key`}}` → `X-Api-Key`. */
function operandName(a: string): string | null {
  const open = a.indexOf('{{');
  const close = open < 0 ? -1 : a.indexOf('}}', open);
  if (close < 0 || close - open > 200) return null;
  const ref = a.slice(open + 2, close).replace(/`/g, '');
  const dot = ref.lastIndexOf('.');
  return dot >= 0 ? ref.slice(dot + 1) : null;
}

/** A container's place in the blueprint: its parent and key; the pointer is built only when asked for. */
class Place {
  private cached: string | undefined = undefined;
  constructor(
    readonly parent: Place | null,
    readonly key: string | number,
  ) {}
  /** RFC 6901 pointer of this container (`''` for the root), memoised; iterative (places may nest deep). */
  pointer(): string {
    if (this.cached !== undefined) return this.cached;
    const chain: Place[] = [this];
    let at = this.parent;
    while (at !== null && at.cached === undefined) {
      chain.push(at);
      at = at.parent;
    }
    let pointer = at?.cached ?? '';
    for (let i = chain.length - 1; i >= 0; i--) {
      const place = chain[i]!;
      pointer = place.parent === null ? '' : `${pointer}/${token(place.key)}`;
      place.cached = pointer;
    }
    return pointer;
  }
}

/**
 * One container (object or array) being walked: a cursor over its children, its place, and the
 * context its strings inherit. One frame per container and no per-child stack traffic keeps the walk
 * close to a bare traversal; a frame (and its key list) is garbage once walked, only its Place lives on.
 */
class Frame {
  next = 0;
  /** True for a module's own `metadata` object (its `expect`, `interface`, `parameters` are `schema`). */
  moduleMetadata = false;
  readonly place: Place;
  readonly keys: readonly string[] | null;
  readonly length: number;
  /** For `{ name|key, value }` pairs: the pair's name, which names its `value`. */
  readonly pairName: string | null = null;
  /** For a filter condition `{ a, o, b }`: the field `a` refers to, which names `b`. */
  readonly operand: string | null = null;
  /** `metadata.designer.samples`: each key is the id of the module whose sample it holds. */
  readonly samples: boolean = false;
  readonly owner: ModuleNode | null;

  constructor(
    parent: Place | null,
    key: string | number,
    readonly value: JsonObject | Json[],
    readonly fieldName: string | null,
    owner: ModuleNode | null,
    readonly section: LeafSection | null,
    byId: ReadonlyMap<string, ModuleNode>,
  ) {
    this.place = new Place(parent, key);
    this.owner = owner;
    if (Array.isArray(value)) {
      this.keys = null;
      this.length = value.length;
      return;
    }
    const keys = Object.keys(value);
    this.keys = keys;
    this.length = keys.length;
    if (section === null) return;
    // Which special keys the object has, from its key list (named loads on objects of many shapes are slow).
    let special = 0;
    for (let i = 0; i < keys.length; i++) special |= specialKey(keys[i]!);
    if (special & MODULE_IDS && section === 'scenario-metadata') {
      const ids = value['moduleIds'];
      const first = Array.isArray(ids) ? ids[0] : undefined;
      // Module ids are integers (parse.ts keys byId by their decimal text); a container here names no module.
      if (typeof first === 'number' || typeof first === 'string') this.owner = byId.get(String(first)) ?? owner;
    }
    if (special & VALUE) {
      const n = special & NAME ? value['name'] : special & KEY ? value['key'] : undefined;
      this.pairName =
        typeof n === 'string'
          ? n
          : special & NAME && special & KEY && typeof value['key'] === 'string'
            ? value['key']
            : null;
    }
    if ((special & (A | O)) === (A | O) && section === 'filter') {
      const a = value['a'];
      if (typeof a === 'string' && typeof value['o'] === 'string') this.operand = operandName(a);
    }
    this.samples = section === 'scenario-metadata' && this.place.pointer() === SAMPLES_POINTER;
  }
}

/** A leaf whose pointer is built on first read: most strings are scanned and never reported. */
class Leaf implements BlueprintLeaf {
  private cached: string | undefined = undefined;
  constructor(
    readonly module: ModuleNode | null,
    private readonly parent: Place,
    private readonly key: string | number,
    readonly value: string,
    readonly fieldName: string | null,
    readonly section: LeafSection,
  ) {}
  get pointer(): string {
    return (this.cached ??= `${this.parent.pointer()}/${token(this.key)}`);
  }
}

/**
 * Every string of `graph.raw` (see BlueprintLeaf) of at least `minLength` characters, in the given
 * sections, in document order. Callers that ignore short strings or some sections say so: most
 * strings of an export are short labels and field specs, and not walking them keeps the walk cheap.
 */
export function collectAllStrings(graph: ScenarioGraph, options: LeafOptions = {}): BlueprintLeaf[] {
  const minLength = options.minLength ?? 0;
  const sections = options.sections ?? null;
  const wanted = (section: LeafSection) => sections === null || sections.has(section);
  // A container is walked when its strings are wanted or it may hold wanted ones (modules, field specs).
  // The scenario's metadata holds the orphans (modules): walked whenever there are any.
  const orphans = graph.orphanIds.length > 0;
  const walked = (section: LeafSection | null) =>
    section === null ||
    section === 'module' ||
    wanted(section) ||
    (section === 'metadata' && sections!.has('schema')) ||
    (section === 'scenario-metadata' && orphans);
  const modules = rawModules(graph);
  const byId = graph.byId;
  const out: BlueprintLeaf[] = [];
  const root = new Frame(null, '', graph.raw, null, null, 'scenario', byId);
  const stack: Frame[] = [root];
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.next >= f.length) {
      stack.pop();
      continue;
    }
    const i = f.next++;
    const key: string | number = f.keys === null ? i : f.keys[i]!;
    const child: Json | undefined = f.keys === null ? (f.value as Json[])[i] : (f.value as JsonObject)[key];
    if (child === null || child === undefined || typeof child === 'number' || typeof child === 'boolean') continue;
    let name: string | null;
    let owner = f.owner;
    let section: LeafSection | null;
    if (f === root) {
      name = key as string;
      section = key === 'flow' ? 'module' : (SCENARIO_SECTIONS.get(key as string) ?? 'scenario');
    } else if (f.section === null) {
      // A module object: each key opens its section; nested routes, branches, tools and error handlers are walked as modules.
      if (SKIPPED_MODULE_KEYS.has(key as string)) continue;
      name = key as string;
      section = MODULE_SECTIONS.get(key as string) ?? (key === MERGE_FILTERS ? 'filter' : 'module');
    } else if (f.keys === null) {
      name = f.fieldName;
      section = f.section;
      const m = typeof child === 'object' && name !== null && MODULE_ARRAYS.has(name) ? modules.get(child) : undefined;
      if (m) {
        name = null;
        owner = m;
        section = null;
      }
    } else {
      // In a `{ name|key, value }` pair the label is a name, not a value; the value is named by it.
      if (f.pairName !== null && (key === 'name' || key === 'key') && child === f.pairName) continue;
      name =
        key === 'value' && f.pairName !== null
          ? f.pairName
          : key === 'b' && f.operand !== null
            ? f.operand
            : (key as string);
      section =
        (f.moduleMetadata && SCHEMA_KEYS.has(key as string)) || (key === 'nested' && f.section === 'metadata')
          ? 'schema'
          : key === BRANCH_CONDITIONS && f.fieldName === 'branches' && f.section === 'module'
            ? 'filter'
            : f.section;
      if (f.samples) owner = byId.get(key as string) ?? owner;
    }
    if (typeof child === 'string') {
      if (section !== null && child.length >= minLength && wanted(section))
        out.push(new Leaf(owner, f.place, key, child, name, section));
    } else if (walked(section)) {
      const frame = new Frame(f.place, key, child, name, owner, section, byId);
      frame.moduleMetadata = f.section === null && section === 'metadata';
      stack.push(frame);
    }
  }
  return out;
}
