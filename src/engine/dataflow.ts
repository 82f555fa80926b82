/**
 * @module engine/dataflow: which module's output reaches which module's input. Built once per
 * evaluation from the mapper references (`{{1.email}}`); values pass through transform and
 * flow-control modules (variables, JSON, text, iterators, aggregators) and are re-derived by any
 * other module. Answers: "does this value come from a webhook payload?", "does personal data reach
 * this module?", "is this value AI output?".
 */
import type { ModuleNode } from './blueprint/types.js';
import type { PiiKind } from './pii.js';
import type { StringLeaf } from './analysis.js';
import { classify, triggerKind } from './blueprint/classify.js';
import { extractRefs, type FieldRef } from './blueprint/expressions.js';
import { piiKind } from './pii.js';

/** A reference found in one module's field. */
export interface ModuleRef extends FieldRef {
  /** JSON Pointer of the consuming field. */
  readonly pointer: string;
  /** The consuming field's name (or `{name, value}` pair name). */
  readonly fieldName: string | null;
}

/** Personal data reaching a module. */
export interface PiiFlow {
  readonly kind: PiiKind;
  /** Where it enters the module (JSON Pointer) and from which module/field. */
  readonly pointer: string;
  readonly from: FieldRef;
}

/** Data-flow facts of one scenario. */
export class DataFlow {
  private readonly refs = new Map<string, ModuleRef[]>();
  private readonly filterRefs = new Map<string, FieldRef[]>();
  private readonly untrusted = new Set<string>();
  private readonly aiDerived = new Set<string>();
  private readonly carries = new Map<string, Map<PiiKind, FieldRef>>();

  constructor(modules: readonly ModuleNode[], leaves: readonly StringLeaf[]) {
    for (const m of modules) this.refs.set(m.id, []);
    for (const leaf of leaves) {
      if (!leaf.value.includes('{{')) continue;
      const list = this.refs.get(leaf.module.id)!;
      for (const r of extractRefs(leaf.value)) list.push({ ...r, pointer: leaf.pointer, fieldName: leaf.fieldName });
    }
    for (const m of modules) {
      const list: FieldRef[] = [];
      for (const group of m.filter?.conditions ?? []) for (const c of group) for (const side of [c['a'], c['b']]) if (typeof side === 'string') list.push(...extractRefs(side));
      this.filterRefs.set(m.id, list);
    }
    const passThrough = (m: ModuleNode) => { const r = classify(m).role; return r === 'transform' || r === 'flow'; };
    for (const m of modules) {
      const kind = m.container === 'flow' && m.index === 0 ? triggerKind(m, null) : null;
      if (kind === 'webhook' || kind === 'mailhook') this.untrusted.add(m.id);
      if (classify(m).ai) this.aiDerived.add(m.id);
    }
    // Fixed point: ids are not ordered and routes may reference later modules; bounded by module count.
    for (let changed = true, rounds = 0; changed && rounds <= modules.length; rounds++) {
      changed = false;
      for (const m of modules) {
        if (!passThrough(m)) continue;
        for (const r of this.refs.get(m.id)!) {
          if (this.untrusted.has(r.moduleId) && !this.untrusted.has(m.id)) { this.untrusted.add(m.id); changed = true; }
          if (this.aiDerived.has(r.moduleId) && !this.aiDerived.has(m.id)) { this.aiDerived.add(m.id); changed = true; }
          for (const [kind, from] of this.piiOfRef(r)) {
            const own = this.carries.get(m.id) ?? new Map<PiiKind, FieldRef>();
            if (!own.has(kind)) { own.set(kind, from); this.carries.set(m.id, own); changed = true; }
          }
        }
      }
    }
  }

  /** Every reference in a module's mapper and parameters. */
  refsOf(moduleId: string): readonly ModuleRef[] {
    return this.refs.get(moduleId) ?? [];
  }

  /** References in a module's filter conditions. */
  filterRefsOf(moduleId: string): readonly FieldRef[] {
    return this.filterRefs.get(moduleId) ?? [];
  }

  /** True when a module's output carries caller-controlled webhook data (directly or through transforms). */
  isUntrusted(moduleId: string): boolean {
    return this.untrusted.has(moduleId);
  }

  /** True when a module's output is AI output (an AI module, or a transform of one). */
  isAiDerived(moduleId: string): boolean {
    return this.aiDerived.has(moduleId);
  }

  /** References of a module whose values come from untrusted webhook data. */
  untrustedInputs(moduleId: string): ModuleRef[] {
    return this.refsOf(moduleId).filter((r) => this.untrusted.has(r.moduleId));
  }

  /** References of a module whose values are AI output. */
  aiInputs(moduleId: string): ModuleRef[] {
    return this.refsOf(moduleId).filter((r) => this.aiDerived.has(r.moduleId));
  }

  /** Personal data reaching a module's inputs, one entry per kind and consuming field. */
  piiInputs(moduleId: string): PiiFlow[] {
    const out: PiiFlow[] = [];
    const seen = new Set<string>();
    for (const r of this.refsOf(moduleId)) {
      for (const [kind, from] of this.piiOfRef(r)) {
        const key = `${kind}|${r.pointer}`;
        if (!seen.has(key)) { seen.add(key); out.push({ kind, pointer: r.pointer, from }); }
      }
    }
    return out;
  }

  private piiOfRef(r: FieldRef): [PiiKind, FieldRef][] {
    const direct = piiKind(r.path);
    const out: [PiiKind, FieldRef][] = direct ? [[direct, { moduleId: r.moduleId, path: r.path }]] : [];
    const carried = this.carries.get(r.moduleId);
    if (carried) for (const [kind, from] of carried) if (kind !== direct) out.push([kind, from]);
    return out;
  }
}
