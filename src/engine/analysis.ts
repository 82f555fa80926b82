/** @module engine/analysis: per-evaluation facts shared by all policies, computed once and memoised. */
import type { Json, JsonObject, ModuleNode, ScenarioGraph } from './blueprint/types.js';
import type { TriggerKind } from './blueprint/classify.js';
import { classify, triggerKind } from './blueprint/classify.js';
import { pointerToken } from './errors.js';
import { DataFlow } from './dataflow.js';

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

/** Read-only analysis handed to every policy's `evaluate`. */
export class Analysis {
  private leaves: StringLeaf[] | null = null;
  private flow: DataFlow | null = null;
  /** How the scenario starts (webhook, app-instant, watch, schedule). */
  readonly trigger: TriggerKind;
  /** The first top-level module, when any. */
  readonly first: ModuleNode | undefined;

  constructor(readonly graph: ScenarioGraph) {
    this.first = graph.topLevelIds[0] !== undefined ? graph.byId.get(graph.topLevelIds[0]) : undefined;
    this.trigger = triggerKind(this.first, graph.settings.instant);
  }

  /** Every string in every module's `mapper` and `parameters`, in document order (computed once). */
  strings(): readonly StringLeaf[] {
    if (!this.leaves) {
      const leaves: StringLeaf[] = [];
      for (const m of this.graph.modules) {
        if (m.mapper) collect(m, m.mapper, `${m.pointer}/mapper`, 'mapper', leaves);
        if (m.parameters) collect(m, m.parameters, `${m.pointer}/parameters`, 'parameters', leaves);
      }
      this.leaves = leaves;
    }
    return this.leaves;
  }

  /** Data-flow facts (references, untrusted input, personal data, AI output), computed once. */
  dataflow(): DataFlow {
    this.flow ??= new DataFlow(this.graph.modules, this.strings());
    return this.flow;
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

/** Iterative walk (no recursion: blueprint JSON may nest arbitrarily deep). */
function collect(module: ModuleNode, root: JsonObject, rootPointer: string, section: 'mapper' | 'parameters', out: StringLeaf[]): void {
  const stack: { value: Json; pointer: string; fieldName: string | null }[] = [{ value: root, pointer: rootPointer, fieldName: null }];
  const batch: StringLeaf[] = [];
  while (stack.length > 0) {
    const { value, pointer, fieldName } = stack.pop()!;
    if (typeof value === 'string') {
      batch.push({ module, pointer, value, fieldName, section });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i]!, pointer: `${pointer}/${i}`, fieldName });
    } else if (value !== null && typeof value === 'object') {
      const pairName = typeof value['name'] === 'string' ? value['name'] : typeof value['key'] === 'string' ? value['key'] : null;
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const child = value[key]!;
        // In a `{ name|key, value }` pair the label is a name, not a value; the value is named by it.
        if (pairName !== null && (key === 'name' || key === 'key') && child === pairName) continue;
        const name = key === 'value' && pairName !== null ? pairName : key;
        stack.push({ value: child, pointer: `${pointer}/${pointerToken(key)}`, fieldName: name });
      }
    }
  }
  out.push(...batch);
}
