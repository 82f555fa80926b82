/** @module engine/analysis: per-evaluation facts shared by all policies, computed once and memoised. */
import type { Json, JsonObject, ModuleNode, ScenarioGraph } from './blueprint/types.js';
import type { TriggerKind } from './blueprint/classify.js';
import { classify, triggerKind } from './blueprint/classify.js';
import { pointerToken } from './errors.js';
import { DataFlow } from './dataflow.js';
import { collectAllStrings, type BlueprintLeaf, type LeafOptions } from './leaves.js';
import { unreachableModules } from './reachability.js';

export type { BlueprintLeaf, LeafOptions, LeafSection } from './leaves.js';

/** One string value of a module's `mapper` or `parameters`. */
export interface StringLeaf {
  readonly module: ModuleNode;
  /** Absolute JSON Pointer of the value in the blueprint (`/flow/1/mapper/headers/0/value`). */
  readonly pointer: string;
  readonly value: string;
  /** The key it is stored under, or for `{ name, value }` pairs (headers, qs, variables) the pair's `name`. */
  readonly fieldName: string | null;
  /** Top-level section: `mapper` or `parameters`. */
  readonly section: 'mapper' | 'parameters';
}

/** Names a value that helpers share per evaluation (`Analysis.shared`): one module-level key per helper. */
export class SharedKey<T> {
  declare private readonly value?: T;
  constructor(readonly name: string) {}
}

/** Read-only analysis handed to every policy's `evaluate`. */
export class Analysis {
  private leaves: StringLeaf[] | null = null;
  private readonly sharedValues = new Map<SharedKey<unknown>, unknown>();
  private readonly everyLeaf = new Map<string, BlueprintLeaf[]>();
  private flow: DataFlow | null = null;
  private dead: ReadonlyMap<string, string> | null = null;
  /** How the scenario starts (webhook, app-instant, watch, schedule). */
  readonly trigger: TriggerKind;
  /** The first top-level module, when any. */
  readonly first: ModuleNode | undefined;

  constructor(readonly graph: ScenarioGraph) {
    this.first = graph.topLevelIds[0] !== undefined ? graph.byId.get(graph.topLevelIds[0]) : undefined;
    this.trigger = triggerKind(this.first, graph.settings.instant);
  }

  /**
   * Every string in every module's `mapper` and `parameters`, in document order (computed once),
   * whatever the module's container (flow, route, error handler, if/else branch, agent tool, orphan).
   * A Merge module's output mappings (`outputs[i].mappings[j]`, `ModuleNode.outputs`) are its
   * mapper: each leaf is named by its output's `name`, in section `mapper`, at its own pointer.
   */
  strings(): readonly StringLeaf[] {
    if (!this.leaves) {
      const leaves: StringLeaf[] = [];
      for (const m of this.graph.modules) {
        if (m.mapper) collect(m, m.mapper, `${m.pointer}/mapper`, 'mapper', leaves);
        if (m.parameters) collect(m, m.parameters, `${m.pointer}/parameters`, 'parameters', leaves);
        m.outputs.forEach((output, i) => collectOutput(m, output, `${m.pointer}/outputs/${i}`, leaves));
      }
      this.leaves = leaves;
    }
    return this.leaves;
  }

  /**
   * Every string the blueprint carries, in document order (computed once per options): mapper,
   * parameters, filters (names and `a`/`b` operands, route filters on a route's first module), module
   * `metadata` (UI state) and field specs (`schema`), unknown module keys, and the scenario's
   * `metadata` and `io`. Each leaf has its JSON Pointer, field name, section and owning module
   * (`leaves.ts`). `options` narrow it (shortest string, sections) so that callers walk only what they read.
   */
  allStrings(options: LeafOptions = {}): readonly BlueprintLeaf[] {
    const key = `${options.minLength ?? 0}|${options.sections ? [...options.sections].sort().join() : '*'}`;
    let leaves = this.everyLeaf.get(key);
    if (!leaves) this.everyLeaf.set(key, (leaves = collectAllStrings(this.graph, options)));
    return leaves;
  }

  /**
   * The value helpers share under `key` in this evaluation, computed by the first that asks (several
   * policies trace over the same per-module data, for example). Held by the Analysis, so it dies with
   * the evaluation. Not a module-level WeakMap keyed by the Analysis: V8 keeps a WeakMap's values
   * alive through young-generation collections, so each evaluation's helper data was promoted to
   * the old generation and scavenges slowed (make `joseph19820124` bench: 1.7 ms scavenges every
   * ~45 evaluations instead of 0.4 ms).
   */
  shared<T>(key: SharedKey<T>, compute: () => T): T {
    if (this.sharedValues.has(key)) return this.sharedValues.get(key) as T;
    const value = compute();
    this.sharedValues.set(key, value);
    return value;
  }

  /** Data-flow facts (references, untrusted input, personal data, AI output), computed once. */
  dataflow(): DataFlow {
    this.flow ??= new DataFlow(this.graph.modules, this.strings());
    return this.flow;
  }

  /**
   * Modules that cannot run as exported, each with why (`route 2 of router 3 is disabled`, a filter
   * comparing design-time constants that can never pass; `reachability.ts`), computed once.
   */
  unreachable(): ReadonlyMap<string, string> {
    this.dead ??= unreachableModules(this.graph);
    return this.dead;
  }

  /** Modules classified as writing or deleting data (role `write` / `delete`). */
  writers(): ModuleNode[] {
    return this.graph.modules.filter((m) => {
      const role = classify(m).role;
      return role === 'write' || role === 'delete';
    });
  }

  /** The module by id (throws on an unknown id: a policy bug, captured by the runner). */
  module(id: string): ModuleNode {
    const m = this.graph.byId.get(id);
    if (!m) throw new Error(`unknown module id ${id}`);
    return m;
  }
}

/** Escapes a key for a JSON Pointer only when it needs it (RFC 6901 §3). */
function token(key: string): string {
  return key.indexOf('~') < 0 && key.indexOf('/') < 0 ? key : pointerToken(key);
}

/** The string mappings of one Merge output `{ name, mappings: [...] }`, named by the output's `name`. */
function collectOutput(module: ModuleNode, output: JsonObject, pointer: string, out: StringLeaf[]): void {
  const name = typeof output['name'] === 'string' ? output['name'] : null;
  const mappings = output['mappings'];
  if (!Array.isArray(mappings)) return;
  mappings.forEach((value, j) => {
    if (typeof value === 'string')
      out.push({ module, pointer: `${pointer}/mappings/${j}`, value, fieldName: name, section: 'mapper' });
  });
}

/** Iterative walk with parallel arrays (no recursion: blueprint JSON may nest arbitrarily deep; no per-node objects). */
function collect(
  module: ModuleNode,
  root: JsonObject,
  rootPointer: string,
  section: 'mapper' | 'parameters',
  out: StringLeaf[],
): void {
  const values: Json[] = [root];
  const pointers: string[] = [rootPointer];
  const names: (string | null)[] = [null];
  while (values.length > 0) {
    const value = values.pop()!;
    const pointer = pointers.pop()!;
    const fieldName = names.pop()!;
    if (typeof value === 'string') {
      out.push({ module, pointer, value, fieldName, section });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const child = value[i]!;
        if (child === null || typeof child === 'number' || typeof child === 'boolean') continue;
        values.push(child);
        pointers.push(`${pointer}/${i}`);
        names.push(fieldName);
      }
    } else if (value !== null && typeof value === 'object') {
      // Only an object with a `value` is a pair: a data store record's `key` or a folder's `name` is a value itself.
      const pairName = !('value' in value)
        ? null
        : typeof value['name'] === 'string'
          ? value['name']
          : typeof value['key'] === 'string'
            ? value['key']
            : null;
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const child = value[key]!;
        if (child === null || typeof child === 'number' || typeof child === 'boolean') continue;
        // In a `{ name|key, value }` pair the label is a name, not a value; the value is named by it.
        if (pairName !== null && (key === 'name' || key === 'key') && child === pairName) continue;
        values.push(child);
        pointers.push(`${pointer}/${token(key)}`);
        names.push(key === 'value' && pairName !== null ? pairName : key);
      }
    }
  }
  // Document order: the stack yields leaves in order (children are pushed in reverse).
}
