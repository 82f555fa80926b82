/**
 * @module engine/policies/sec/caller-input: what the caller of a webhook controls, value by value
 * (SEC-5). `DataFlow.isUntrusted` answers per module; SEC-5 needs finer answers. A *Set variables*
 * module that stores one payload flag next to five literal ids passes on only the flag (make
 * `amrit-dash-amrit-s-cricket-bot`, variables 6), while one that stores the caller's script ids
 * passes them on (make `amrit-dash-update-apps-script-code`, variables 2); an AI answer to the
 * caller's text is text the caller steers (make-extra `tbauer79999`, SMS 47); and a record found by
 * a search on the caller's phone number is a record the caller chose (make-extra `tbauer79999`,
 * search 28 → update 27).
 */
import type { Analysis, StringLeaf } from '../../analysis.js';
import type { FieldRef } from '../../blueprint/expressions.js';
import type { ModuleNode } from '../../blueprint/types.js';
import { SharedKey } from '../../analysis.js';
import { classify } from '../../blueprint/classify.js';

/** The value is the caller's own input (directly or through variables, JSON, text and iterator modules). */
export const PAYLOAD = 1;
/** The value is AI output whose prompt carries the caller's input: text the caller steers. */
export const STEERED_AI = 2;
/** The value was read (searched, fetched) with a key the caller chose: a record or file the caller picks. */
export const LOOKUP = 4;
/** Bit set of `PAYLOAD`, `STEERED_AI`, `LOOKUP`; 0 when the caller has no say. */
export type Origin = number;

/** Make's variable modules, by what their output fields are named after (Make *Tools*: Set / Get variable(s)). */
const SET_VARIABLES: ReadonlySet<string> = new Set(['util:SetVariables', 'util:SetVariable2', 'util:SetVariable']);
const GET_VARIABLES: ReadonlySet<string> = new Set(['util:GetVariables', 'util:GetVariable2', 'util:GetVariable']);

/** One string value of a module with what the caller controls in it. */
export interface CallerLeaf {
  readonly leaf: StringLeaf;
  /** Top-level key of the field under `mapper` or `parameters` (`url`, `to`, `values`). */
  readonly key: string;
  /** Union of what the value's references carry. */
  readonly origin: Origin;
  /** The payload fields it maps (`text`, `customer_email`): the webhook's own paths, through variables to the fields they store, else the pass-through module's field. */
  readonly payloadPaths: readonly string[];
  /** The references in the value (`extractRefs(leaf.value)`, as DataFlow read them). */
  readonly refs: readonly FieldRef[];
}

/** Caller control over the values of one scenario started by the webhook `hookId` (memoised per variable). */
export class CallerInput {
  /** Origin of each variable (`module id` NUL `name`) of variable modules. */
  private readonly memo = new Map<string, Origin>();
  /** Origin of the output of every other module, by `ordinal`; UNKNOWN until resolved. */
  private readonly outputOrigin: Int8Array;
  /** Payload paths stored in each variable (`module id` NUL `name`). */
  private readonly paths = new Map<string, readonly string[]>();
  // Per-module results by `ordinal` (arrays, not Maps keyed by id: these are asked per module per source).
  private readonly leafCache: (readonly CallerLeaf[] | undefined)[] = [];
  private readonly carrying: Int8Array;
  private read: readonly string[] | null = null;
  private setters: Map<string, FieldRef[]> | null = null;
  private readersClosure: ReadonlySet<string> | null = null;

  constructor(
    private readonly analysis: Analysis,
    readonly hookId: string,
  ) {
    this.outputOrigin = new Int8Array(analysis.graph.modules.length).fill(UNKNOWN);
    this.carrying = new Int8Array(analysis.graph.modules.length).fill(UNKNOWN);
  }

  /**
   * True when a mapped value of `m` carries something the caller controls: `leaves(m)` has one with a
   * non-zero origin. Resolves the same references in the same order as `leaves`, without building
   * them: most modules carry nothing of a given source, and callers skip those.
   */
  carries(m: ModuleNode): boolean {
    if (this.carrying[m.ordinal] === UNKNOWN) {
      let carries = 0;
      // A module that does not read the source, directly or through others, carries nothing of it:
      // skip resolving its values (and, behind them, everything upstream of it).
      if (!this.downstream().has(m.id)) {
        this.carrying[m.ordinal] = 0;
        return false;
      }
      search: for (const { refs } of this.analysis.dataflow().mappedValuesOf(m.id)) {
        for (const r of refs)
          if (this.origin(r) !== 0) {
            carries = 1;
            break search;
          }
      }
      this.carrying[m.ordinal] = carries;
    }
    return this.carrying[m.ordinal] === 1;
  }

  /** The string values of a module, each with its origin (only values with a mapping; computed once per module). */
  leaves(m: ModuleNode): readonly CallerLeaf[] {
    const cached = this.leafCache[m.ordinal];
    if (cached) return cached;
    const out: CallerLeaf[] = [];
    for (const { leaf, key, refs } of mappedValues(this.analysis, m)) {
      let origin = 0;
      const payloadPaths: string[] = [];
      for (const ref of refs) {
        const r = this.resolve(ref);
        origin |= r.origin;
        payloadPaths.push(...r.paths);
      }
      out.push({ leaf, key, origin, payloadPaths, refs });
    }
    this.leafCache[m.ordinal] = out;
    return out;
  }

  /** What the caller controls in the value of one reference (`{{3.url}}`): 0 when nothing. */
  origin(ref: FieldRef): Origin {
    return ref.moduleId === this.hookId ? PAYLOAD : this.resolve(ref).origin;
  }

  /** The payload paths the scenario reads, in mappings and filter conditions (`order_id`, `data.transaction.id`); empty when the payload is never used. */
  payloadPaths(): readonly string[] {
    if (this.read) return this.read;
    const df = this.analysis.dataflow();
    const out: string[] = [];
    for (const m of this.analysis.graph.modules) {
      for (const r of df.refsOf(m.id)) if (r.moduleId === this.hookId) out.push(r.path);
      for (const r of df.filterRefsOf(m.id)) if (r.moduleId === this.hookId) out.push(r.path);
    }
    this.read = out;
    return out;
  }

  private resolve(ref: FieldRef): { origin: Origin; paths: readonly string[] } {
    if (ref.moduleId === this.hookId) return { origin: PAYLOAD, paths: [ref.path] };
    // Only modules that read the source can pass it on (see `downstream`); the rest are not traced.
    if (!this.downstream().has(ref.moduleId)) return NOTHING;
    const m = this.analysis.graph.byId.get(ref.moduleId);
    if (!m) return NOTHING;
    // A variable module is resolved per variable; any other module for its whole output.
    const named = isVariables(m);
    const key = named ? `${m.id}\u0000${head(ref.path)}` : '';
    const known = named
      ? this.memo.get(key)
      : this.outputOrigin[m.ordinal] === UNKNOWN
        ? undefined
        : this.outputOrigin[m.ordinal];
    // Most references carry nothing of the source: answer those without allocating (paths are only stored for payload origins).
    if (known === 0) return NOTHING;
    if (known !== undefined)
      return { origin: known, paths: named ? (this.paths.get(key) ?? []) : known & PAYLOAD ? [ref.path] : [] };
    // Cycle guard: a module referencing itself through routes adds nothing.
    if (named) this.memo.set(key, 0);
    else this.outputOrigin[m.ordinal] = 0;
    const inputs = this.inputsOf(m, head(ref.path));
    let origin = 0;
    const paths: string[] = [];
    for (const r of inputs.refs) {
      const sub = this.resolve(r);
      origin |= sub.origin;
      paths.push(...sub.paths);
    }
    origin = inputs.as(origin);
    if (named) this.memo.set(key, origin);
    else this.outputOrigin[m.ordinal] = origin;
    if (origin === 0) return NOTHING;
    if (!(origin & PAYLOAD)) return { origin, paths: [] };
    // A variable is named by its author (`DSM Full Update`): the payload fields it stores describe it.
    // Any other pass-through output is described by its own field (`{{3.name}}` of a parsed `{{1.body}}` is a name).
    if (!named) return { origin, paths: [ref.path] };
    this.paths.set(key, paths);
    return { origin, paths };
  }

  /**
   * The references a module's output (field `name` of it) is made from, and how their origin maps
   * onto the output: variables pass on the named variable only; transforms and flow modules pass
   * everything on; an AI module turns caller input in its prompt into steered output; a read keyed
   * on caller input returns what the caller picked; anything else re-derives its output.
   */
  private inputsOf(m: ModuleNode, name: string): { refs: readonly FieldRef[]; as: (o: Origin) => Origin } {
    const df = this.analysis.dataflow();
    const same = (o: Origin) => o;
    if (SET_VARIABLES.has(m.type)) return { refs: df.refsOf(m.id).filter((r) => r.fieldName === name), as: same };
    if (GET_VARIABLES.has(m.type)) return { refs: this.setterRefs().get(name) ?? [], as: same };
    const cls = classify(m);
    if (cls.ai)
      return { refs: df.promptRefsOf(m.id), as: (o) => (o & (PAYLOAD | STEERED_AI) ? STEERED_AI : 0) | (o & LOOKUP) };
    if (cls.role === 'transform' || cls.role === 'flow') return { refs: df.refsOf(m.id), as: same };
    if (cls.role === 'read') return { refs: df.refsOf(m.id), as: (o) => (o === 0 ? 0 : LOOKUP) };
    return { refs: [], as: same };
  }

  /**
   * The modules that read the source directly or through others (`DataFlow.readersOf`, transitively;
   * a Get variable module reads what every Set variable module stores). Every module whose output
   * `resolve` can trace to the source is in it: the inputs `inputsOf` follows are references
   * (`readersOf` is their reverse) or, for Get variables, the Set variables' values.
   */
  private downstream(): ReadonlySet<string> {
    if (this.readersClosure) return this.readersClosure;
    const df = this.analysis.dataflow();
    const getters = this.analysis.graph.modules.filter((m) => GET_VARIABLES.has(m.type)).map((m) => m.id);
    const seen = new Set<string>();
    const stack = [this.hookId];
    while (stack.length > 0) {
      const id = stack.pop()!;
      const next = [...df.readersOf(id)];
      const m = this.analysis.graph.byId.get(id);
      if (m && SET_VARIABLES.has(m.type)) next.push(...getters);
      for (const r of next)
        if (!seen.has(r)) {
          seen.add(r);
          stack.push(r);
        }
    }
    this.readersClosure = seen;
    return seen;
  }

  /** Variable name → the references of every value stored under it (Get variable reads what any Set variable stored). */
  private setterRefs(): Map<string, FieldRef[]> {
    if (this.setters) return this.setters;
    const df = this.analysis.dataflow();
    const map = new Map<string, FieldRef[]>();
    for (const m of this.analysis.graph.modules) {
      if (!SET_VARIABLES.has(m.type)) continue;
      for (const r of df.refsOf(m.id))
        if (r.fieldName !== null) map.set(r.fieldName, [...(map.get(r.fieldName) ?? []), r]);
    }
    this.setters = map;
    return map;
  }
}

/** What a reference resolves to when it carries nothing of the source (shared: most do). */
const NOTHING: { readonly origin: Origin; readonly paths: readonly string[] } = Object.freeze({
  origin: 0,
  paths: Object.freeze([]),
});

/** Not resolved yet (per-module arrays). */
const UNKNOWN = -1;

/** True for Make's Set / Get variable(s) modules, whose outputs are named variables (app checked first: most modules are not `util`). */
function isVariables(m: ModuleNode): boolean {
  return m.app === 'util' && (SET_VARIABLES.has(m.type) || GET_VARIABLES.has(m.type));
}

/** First segment of a path, the variable name (`Spreadsheet ID`, `items[].name` → `items`). */
function head(path: string): string {
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === 0x2e || c === 0x5b) return path.slice(0, i); // . [
  }
  return path;
}

/** Top-level key under `mapper` / `parameters` of a pointer inside module `m` (`/flow/2/mapper/values/0` → `values`). */
export function topKey(m: ModuleNode, pointer: string): string {
  const section = pointer.indexOf('/', m.pointer.length + 1);
  if (section < 0) return '';
  const end = pointer.indexOf('/', section + 1);
  const token = end < 0 ? pointer.slice(section + 1) : pointer.slice(section + 1, end);
  return token.indexOf('~') < 0 ? token : token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A mapped value of a module with its top-level key and references, the same whoever the source is. */
interface MappedValue {
  readonly leaf: StringLeaf;
  readonly key: string;
  readonly refs: readonly FieldRef[];
}

/**
 * Mapped values per analysis and module id, keyed once: SEC-5, SEC-6 and AI-2 trace several sources
 * (a webhook, each forged request, each injected model) over the same values. The references are the
 * ones DataFlow extracted.
 */
const MAPPED = new SharedKey<Map<string, readonly MappedValue[]>>('caller-input mapped values');

function mappedValues(analysis: Analysis, m: ModuleNode): readonly MappedValue[] {
  const byModule = analysis.shared(MAPPED, () => new Map<string, readonly MappedValue[]>());
  let values = byModule.get(m.id);
  if (!values)
    byModule.set(
      m.id,
      (values = analysis
        .dataflow()
        .mappedValuesOf(m.id)
        .map(({ leaf, refs }) => ({ leaf, key: topKey(m, leaf.pointer), refs }))),
    );
  return values;
}
