/**
 * @module engine/dataflow: which module's output reaches which module's input. Built once per
 * evaluation from the mapper references (`{{1.email}}`). Sources (`sources.ts`) give a module's
 * output its facts (untrusted, personal); transform and flow-control modules (variables, JSON,
 * text, iterators, aggregators) pass them on; an AI module passes on the personal data of its
 * prompt (a summary of a personal e-mail is still personal data) but not its untrusted-ness (that
 * is `isAiDerived`); any other module re-derives its output. Answers: "is this value
 * attacker-controllable?", "does personal data reach this module?", "is this value AI output?".
 */
import type { ModuleFilter, ModuleNode } from './blueprint/types.js';
import type { PiiContext, PiiKind } from './pii.js';
import type { StringLeaf } from './analysis.js';
import type { ModuleSource } from './sources.js';
import { classify } from './blueprint/classify.js';
import { extractRefs, type FieldRef } from './blueprint/expressions.js';
import { isTechnicalField, isThingField, piiKind, titleKind, titleSays } from './pii.js';
import { bodyPromptRefs, promptPart } from './prompt.js';
import { captureLabels } from './regex-captures.js';
import { sourceOf, webhookSource } from './sources.js';

/** A reference found in one module's field. */
export interface ModuleRef extends FieldRef {
  /** JSON Pointer of the consuming field. */
  readonly pointer: string;
  /** The consuming field's name (or `{name, value}` pair name). */
  readonly fieldName: string | null;
}

/** One mapped string of a module (it contains `{{`) with the references in it, in order. */
export interface MappedValue {
  readonly leaf: StringLeaf;
  readonly refs: readonly ModuleRef[];
}

/** Personal data reaching a module. */
export interface PiiFlow {
  readonly kind: PiiKind;
  /** Where it enters the module (JSON Pointer) and from which module/field. */
  readonly pointer: string;
  readonly from: FieldRef;
  /** The source module's description when the data is personal because of its source ("an incoming e-mail (`google-email:TriggerNewEmail`)"), or for health data read from a question's title, `the answer to "…"`. */
  readonly origin?: string;
}

/** Data-flow facts of one scenario. */
export class DataFlow {
  private readonly refs = new Map<string, ModuleRef[]>();
  private readonly mapped = new Map<string, MappedValue[]>();
  private readonly prompts = new Map<string, ModuleRef[]>();
  private readonly filterRefs = new Map<string, FieldRef[]>();
  private readonly sources = new Map<string, ModuleSource>();
  /** Untrusted modules → the source module the untrusted data comes from. */
  private readonly untrusted = new Map<string, string>();
  private readonly aiDerived = new Set<string>();
  private readonly carries = new Map<string, Map<PiiKind, FieldRef>>();
  /** Column labels of spreadsheet-like outputs, read on first use: module id → column key (`2`) → label (`Customer Email`). */
  private readonly columns = new Map<string, Map<string, string> | null>();
  /** Capture group labels of Text parser modules, read on first use: module id → `$5` → `Company Name` (`regex-captures.ts`). */
  private readonly captures = new Map<string, ReadonlyMap<string, string | null> | null>();
  /** Variables of *Set multiple variables* modules, read on first use: module id → variable name → the references in its value. */
  private readonly variables = new Map<string, Map<string, ModuleRef[]> | null>();
  /** The special question (health, CV, identity document, tax) a personal source's field answers, per `moduleId|path` (`fieldTitle`, `titleKind`), `null` when none. */
  private readonly specialAnswers = new Map<string, { kind: PiiKind; title: string } | null>();
  /** Data store id → the references each write module stores under each record field (`data.<field>`), read on first use. */
  private stores: Map<string, Map<string, ModuleRef[]>> | null = null;
  /** What each field is by itself (`fieldKinds`), per `moduleId|path`. */
  private readonly fields = new Map<string, { direct: PiiKind | null; kinds: readonly [PiiKind, FieldRef][] }>();
  /** The question title of a field (`fieldTitle`), per `moduleId|path`, `null` when none. */
  private readonly titles = new Map<string, string | null>();
  private readonly byId: ReadonlyMap<string, ModuleNode>;
  private readonly piiCache = new Map<string, PiiFlow[]>();
  /** Module id → ids of the modules that map or filter on its output (`readersOf`), built on first use. */
  private readers: Map<string, string[]> | null = null;

  constructor(modules: readonly ModuleNode[], leaves: readonly StringLeaf[]) {
    const ai = new Set<string>();
    this.byId = new Map(modules.map((m) => [m.id, m]));
    for (const m of modules) {
      this.refs.set(m.id, []);
      this.mapped.set(m.id, []);
      if (classify(m).ai) {
        ai.add(m.id);
        this.prompts.set(m.id, []);
      }
    }
    const branches = new RouteChains(this.byId);
    for (const leaf of leaves) {
      if (!leaf.value.includes('{{')) continue;
      const id = leaf.module.id;
      const list = this.refs.get(id)!;
      const start = list.length;
      // A module on another route of a router than the consumer never runs in the consumer's path:
      // its output is empty there (issue 32, "findings name the right module").
      const refs = extractRefs(leaf.value)
        .filter((r) => !branches.apart(leaf.module, r.moduleId))
        .map((r): ModuleRef => ({
          moduleId: r.moduleId,
          path: r.path,
          pointer: leaf.pointer,
          fieldName: leaf.fieldName,
        }));
      for (const r of refs) list.push(r);
      this.mapped.get(id)!.push({ leaf, refs });
      if (!ai.has(id)) continue;
      const prompt = this.prompts.get(id)!;
      const part = promptPart(leaf.module, leaf.pointer, leaf.fieldName);
      if (part === 'all') for (let i = start; i < list.length; i++) prompt.push(list[i]!);
      else if (part === 'body')
        for (const r of bodyPromptRefs(leaf.value))
          if (!branches.apart(leaf.module, r.moduleId))
            prompt.push({ moduleId: r.moduleId, path: r.path, pointer: leaf.pointer, fieldName: leaf.fieldName });
    }
    // Paths read from each custom webhook: its payload shape (`sources.ts` webhookSource).
    const hooks = new Map<string, string[]>();
    for (const m of modules) if (m.type === 'gateway:CustomWebHook') hooks.set(m.id, []);
    for (const m of modules) {
      const list: FieldRef[] = [];
      // An if/else reads the operands of its branch conditions to choose the branch (Make help "If-else and Merge").
      const groups = m.branches.length === 0 ? (m.filter?.conditions ?? []) : conditionGroups(m);
      for (const group of groups)
        for (const c of group)
          for (const side of [c['a'], c['b']])
            if (typeof side === 'string')
              for (const r of extractRefs(side)) if (!branches.apart(m, r.moduleId)) list.push(r);
      this.filterRefs.set(m.id, list);
      if (hooks.size === 0) continue;
      for (const r of list) hooks.get(r.moduleId)?.push(r.path);
      for (const r of this.refs.get(m.id)!) hooks.get(r.moduleId)?.push(r.path);
    }
    for (const m of modules) {
      const paths = hooks.get(m.id);
      const source = paths ? webhookSource(m, paths) : sourceOf(m);
      if (source) this.sources.set(m.id, source);
      if (source?.untrusted) this.untrusted.set(m.id, m.id);
      if (ai.has(m.id)) this.aiDerived.add(m.id);
    }
    // How each module passes facts on (`carrierOf`): transforms pass everything, hops (conversions,
    // file staging and downloads) untrusted-ness and personal data, AI modules their prompt's personal
    // data, data store reads what the scenario's writes to the same store hold.
    const carriers = modules.map((m) => carrierOf(m, this.sources.get(m.id) ?? null));
    // Fixed point: ids are not ordered and routes may reference later modules; bounded by module count.
    for (let changed = true, rounds = 0; changed && rounds <= modules.length; rounds++) {
      changed = false;
      for (const [i, m] of modules.entries()) {
        const carrier = carriers[i]!;
        if (carrier === null) continue;
        const refs =
          carrier === 'prompt'
            ? this.prompts.get(m.id)!
            : carrier === 'store'
              ? this.storedRefs(m, '')
              : this.refs.get(m.id)!;
        for (const r of refs) {
          if (carrier !== 'prompt') {
            const origin = this.untrusted.get(r.moduleId);
            if (origin !== undefined && !this.untrusted.has(m.id)) {
              this.untrusted.set(m.id, origin);
              changed = true;
            }
          }
          if (carrier === 'through' && this.aiDerived.has(r.moduleId) && !this.aiDerived.has(m.id)) {
            this.aiDerived.add(m.id);
            changed = true;
          }
          // A data store read is charged per record field (`piiOfRef` → `storedRefs`), not as a bundle.
          if (carrier === 'store') continue;
          for (const [kind, from] of this.piiOfRef(r)) {
            const own = this.carries.get(m.id) ?? new Map<PiiKind, FieldRef>();
            if (!own.has(kind)) {
              own.set(kind, from);
              this.carries.set(m.id, own);
              changed = true;
            }
          }
        }
      }
    }
  }

  /** Every reference in a module's mapper and parameters. */
  refsOf(moduleId: string): readonly ModuleRef[] {
    return this.refs.get(moduleId) ?? [];
  }

  /** A module's mapped strings (mapper and parameters values with `{{`) with their references, in document order. */
  mappedValuesOf(moduleId: string): readonly MappedValue[] {
    return this.mapped.get(moduleId) ?? [];
  }

  /**
   * References in the prompt of an AI module: its prompt, messages, system and input fields, or for
   * an HTTP call to an LLM API the prompt members of its request body; never headers, URL, model
   * or ids (`prompt.ts`). Empty for a module that is not AI.
   */
  promptRefsOf(moduleId: string): readonly ModuleRef[] {
    return this.prompts.get(moduleId) ?? [];
  }

  /** References in a module's filter conditions (for an if/else, also in its branch conditions). */
  filterRefsOf(moduleId: string): readonly FieldRef[] {
    return this.filterRefs.get(moduleId) ?? [];
  }

  /**
   * Modules that read a module's output: a mapping (`{{7.data}}`) or a filter operand refers to it.
   * The reverse of `refsOf` and `filterRefsOf`, indexed on first use. The module's own error route
   * reading `{{7.error.message}}` counts too: callers that ask "is the output used" skip it.
   */
  readersOf(moduleId: string): readonly string[] {
    if (!this.readers) {
      const readers = new Map<string, string[]>();
      const add = (target: string, reader: string) => {
        const list = readers.get(target);
        if (!list) readers.set(target, [reader]);
        else if (!list.includes(reader)) list.push(reader);
      };
      for (const [reader, refs] of this.refs) for (const r of refs) add(r.moduleId, reader);
      for (const [reader, refs] of this.filterRefs) for (const r of refs) add(r.moduleId, reader);
      this.readers = readers;
    }
    return this.readers.get(moduleId) ?? [];
  }

  /** The source facts of a module (`sources.ts`), `null` when it is not a source. */
  sourceOf(moduleId: string): ModuleSource | null {
    return this.sources.get(moduleId) ?? null;
  }

  /**
   * True when a module's output carries attacker-controllable input: it is an untrusted source
   * (webhook, mail, chat, public form, ticket, feed, fetched page; `sources.ts`) or a transform or
   * flow module fed by one. AI output is not counted here even when its prompt was untrusted (use
   * `isAiDerived` for that).
   */
  isUntrusted(moduleId: string): boolean {
    return this.untrusted.has(moduleId);
  }

  /** The untrusted source a module's output comes from (itself when it is one), `null` when trusted. */
  untrustedSourceOf(moduleId: string): ModuleSource | null {
    const origin = this.untrusted.get(moduleId);
    return origin === undefined ? null : (this.sources.get(origin) ?? null);
  }

  /** The id of the untrusted source module a module's output comes from (itself when it is one), `null` when trusted. */
  untrustedOriginOf(moduleId: string): string | null {
    return this.untrusted.get(moduleId) ?? null;
  }

  /** True when a module's output is AI output (an AI module, or a transform of one). */
  isAiDerived(moduleId: string): boolean {
    return this.aiDerived.has(moduleId);
  }

  /** References of a module (all its fields) whose values are untrusted (see `isUntrusted`). */
  untrustedInputs(moduleId: string): ModuleRef[] {
    return this.refsOf(moduleId).filter((r) => this.untrusted.has(r.moduleId));
  }

  /** References of a module whose values are AI output. */
  aiInputs(moduleId: string): ModuleRef[] {
    return this.refsOf(moduleId).filter((r) => this.aiDerived.has(r.moduleId));
  }

  /** Personal data reaching a module's inputs, one entry per kind and consuming field (computed once per module). */
  piiInputs(moduleId: string): readonly PiiFlow[] {
    const cached = this.piiCache.get(moduleId);
    if (cached) return cached;
    const out: PiiFlow[] = [];
    const seen = new Set<string>();
    for (const r of this.refsOf(moduleId)) {
      for (const [kind, from] of this.piiOfRef(r)) {
        const key = `${kind}|${r.pointer}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const origin = kind === 'personal' ? this.sources.get(from.moduleId)?.label : this.questionOrigin(from, kind);
        out.push(
          origin === undefined ? { kind, pointer: r.pointer, from } : { kind, pointer: r.pointer, from, origin },
        );
      }
    }
    this.piiCache.set(moduleId, out);
    return out;
  }

  private piiOfRef(r: FieldRef, depth = 0): [PiiKind, FieldRef][] {
    // A *Set multiple variables* output field is one variable: it carries what that variable's value maps, not every variable's.
    const variable = this.variableRefs(r);
    if (variable !== undefined) {
      if (depth > 16) return [];
      const out: [PiiKind, FieldRef][] = [];
      for (const v of variable)
        for (const pair of this.piiOfRef(v, depth + 1)) if (!out.some(([k]) => k === pair[0])) out.push(pair);
      return out;
    }
    // A data store record field holds what the scenario's writes to that store put under it (taint survives the hop).
    const stored = this.storedFieldRefs(r);
    if (stored !== undefined) {
      if (depth > 16) return [];
      const out: [PiiKind, FieldRef][] = [];
      for (const v of stored)
        for (const pair of this.piiOfRef(v, depth + 1)) if (!out.some(([k]) => k === pair[0])) out.push(pair);
      const named = piiKind(r.path, null);
      if (named && !out.some(([k]) => k === named)) out.push([named, { moduleId: r.moduleId, path: r.path }]);
      return out;
    }
    // A labelled capture of a Text parser holds what its label names (`Company Name: (.*?)` a company,
    // `Email Address: (.*?)` an address), judged as a field of a person when the parsed text is personal.
    const label = this.captureLabel(r);
    if (typeof label === 'string') {
      const personal = this.carries.has(r.moduleId);
      const kind =
        piiKind(label, personal ? 'person' : null) ??
        (personal && RETOLD.test(label.replace(/\s+/g, '')) ? 'personal' : null);
      return kind ? [[kind, { moduleId: r.moduleId, path: r.path }]] : [];
    }
    const { direct, kinds } = this.fieldKinds(r);
    const out: [PiiKind, FieldRef][] = [...kinds];
    const carried = this.carries.get(r.moduleId);
    // A reference or technical field (`{{62.id}}`, `status`) of a module carrying personal data is not
    // that data, nor is a field that names a thing (`company`, `topic`): taint follows fields, not bundles.
    if (carried && !isTechnicalField(r.path) && !isThingField(r.path))
      for (const [kind, from] of carried) if (kind !== direct) out.push([kind, from]);
    return out;
  }

  /**
   * What a field is by itself, independent of what its module carries: its kind by name in its
   * source's context, by its title (`titleSays`), and a special question it answers (`specialQuestion`).
   * Read once per module and path (the fixed point asks again each round).
   */
  private fieldKinds(r: FieldRef): { direct: PiiKind | null; kinds: readonly [PiiKind, FieldRef][] } {
    const key = `${r.moduleId}|${r.path}`;
    const known = this.fields.get(key);
    if (known) return known;
    const root: PiiContext = this.sources.get(r.moduleId)?.personal ?? null;
    let direct = piiKind(this.named(r), root);
    // A form answer or sheet column with a title is what its question asks for: who the respondent is
    // (`What's your full name?` → a name), or a thing (`What topic do you want posts about?` → not personal).
    if ((direct === 'personal' || direct === null) && (root === 'content' || root === 'person')) {
      const title = this.titleOf(r);
      const says = title !== null ? titleSays(title) : null;
      if (says === 'thing') direct = null;
      else if (says !== null) direct = says;
    }
    const at = { moduleId: r.moduleId, path: r.path };
    const kinds: [PiiKind, FieldRef][] = direct ? [[direct, at]] : [];
    // A form answer is read by question id (`answers.\`0e3657d9\`...`); its exported title may ask
    // about health, for a CV, an identity document or tax data.
    if (root === 'content' || root === 'person') {
      const special = this.specialQuestion(r);
      if (special && special.kind !== direct) kinds.push([special.kind, at]);
    }
    const value = { direct, kinds };
    this.fields.set(key, value);
    return value;
  }

  /**
   * The references in the value of the variable a reference reads from a *Set multiple variables*
   * module (`38.Today` → the refs of variable *Today*), `undefined` when the reference is not to one
   * of its variables (Make help, *Tools → Set multiple variables*: each variable is an output field).
   */
  private variableRefs(r: FieldRef): readonly ModuleRef[] | undefined {
    let vars = this.variables.get(r.moduleId);
    if (vars === undefined) {
      vars = null;
      const m = this.byId.get(r.moduleId);
      const list = m?.type === 'util:SetVariables' ? m.mapper?.['variables'] : undefined;
      if (m && Array.isArray(list)) {
        vars = new Map();
        const prefix = `${m.pointer}/mapper/variables/`;
        for (const [i, v] of list.entries()) {
          const name = v && typeof v === 'object' && !Array.isArray(v) ? v['name'] : undefined;
          if (typeof name !== 'string') continue;
          const at = `${prefix}${i}/`;
          vars.set(
            name,
            this.refsOf(m.id).filter((x) => x.pointer.startsWith(at)),
          );
        }
      }
      this.variables.set(r.moduleId, vars);
    }
    if (vars === null) return undefined;
    const dot = r.path.indexOf('.');
    return vars.get((dot < 0 ? r.path : r.path.slice(0, dot)).replace(/`/g, ''));
  }

  /** `the answer to "¿Tienes algún tratamiento en curso?"` for a field read as special data by its question's title. */
  private questionOrigin(from: FieldRef, kind: PiiKind): string | undefined {
    const q = this.specialAnswers.get(`${from.moduleId}|${from.path}`);
    const title = q && q.kind === kind ? q.title : null;
    return title ? `the answer to "${title.length > 80 ? `${title.slice(0, 79)}…` : title}"` : undefined;
  }

  /** The special question (health, CV, identity document, tax) a field answers, by its title (`fieldTitle`, `titleKind`). */
  private specialQuestion(r: FieldRef): { kind: PiiKind; title: string } | null {
    const key = `${r.moduleId}|${r.path}`;
    let q = this.specialAnswers.get(key);
    if (q === undefined) {
      const t = this.questionTitle(r);
      const kind = t !== null ? titleKind(t) : null;
      q = kind !== null ? { kind, title: t!.trim() } : null;
      this.specialAnswers.set(key, q);
    }
    return q;
  }

  /**
   * The references the scenario's data store writes store under the record field a reference reads
   * (`{{12.history}}`, `{{55.data.\`First Name\`}}` of a Get / Search record module → the refs mapped
   * into `data.history` by every Add / Update record module of the same data store); `undefined` when
   * the reference is not to a data store read. Make data stores keep records between runs and
   * scenarios: a field read back carries what was written (issue 32, "taint survives hops").
   */
  private storedFieldRefs(r: FieldRef): readonly ModuleRef[] | undefined {
    const m = this.byId.get(r.moduleId);
    if (!m || m.app !== 'datastore' || classify(m).effect !== 'read') return undefined;
    const segments = r.path.replace(/`/g, '').split('.');
    const field = (segments[0] === 'data' ? (segments[1] ?? '') : (segments[0] ?? '')).replace(/\[\]$/, '');
    if (field === 'key' || field === 'exist' || field === '') return field === '' ? this.storedRefs(m, '') : [];
    return this.storedRefs(m, field);
  }

  /** The refs writes to `read`'s data store map into record field `field` (every field for `''`). */
  private storedRefs(read: ModuleNode, field: string): readonly ModuleRef[] {
    const id = storeId(read);
    if (id === null) return [];
    if (!this.stores) {
      const stores = new Map<string, Map<string, ModuleRef[]>>();
      for (const w of this.byId.values()) {
        const ds = w.app === 'datastore' && classify(w).effect === 'write' ? storeId(w) : null;
        if (ds === null) continue;
        const fields = stores.get(ds) ?? new Map<string, ModuleRef[]>();
        stores.set(ds, fields);
        const prefix = `${w.pointer}/mapper/data/`;
        for (const ref of this.refsOf(w.id)) {
          if (!ref.pointer.startsWith(prefix)) continue;
          const name = ref.pointer.slice(prefix.length).split('/')[0]!.replace(/~1/g, '/').replace(/~0/g, '~');
          fields.set(name, [...(fields.get(name) ?? []), ref]);
        }
      }
      this.stores = stores;
    }
    const fields = this.stores.get(id);
    if (!fields) return [];
    return field === '' ? [...fields.values()].flat() : (fields.get(field) ?? []);
  }

  /**
   * The label of the Text parser capture a reference reads (`2.$5` → `Company Name`), `null` for an
   * unlabelled capture, `undefined` when the reference is not to a parser capture.
   */
  private captureLabel(r: FieldRef): string | null | undefined {
    let labels = this.captures.get(r.moduleId);
    if (labels === undefined) {
      const m = this.byId.get(r.moduleId);
      const pattern = m && PARSERS.has(m.type) ? (m.parameters?.['pattern'] ?? m.mapper?.['pattern']) : undefined;
      labels = typeof pattern === 'string' ? captureLabels(pattern) : null;
      this.captures.set(r.moduleId, labels);
    }
    if (labels === null) return undefined;
    const dot = r.path.indexOf('.');
    const key = (dot < 0 ? r.path : r.path.slice(0, dot)).replace(/`|\[\]$/g, '');
    return labels.has(key) ? labels.get(key)! : undefined;
  }

  /** The title of the field a reference reads: its column label (`2` → `Customer Email`) or its question title (`fieldTitle`), `null` when none. */
  private titleOf(r: FieldRef): string | null {
    const named = this.named(r);
    if (named !== r.path) return named.split('.')[0]!;
    return this.questionTitle(r);
  }

  /** `fieldTitle` of the field a reference reads, read once per module and path. */
  private questionTitle(r: FieldRef): string | null {
    const key = `${r.moduleId}|${r.path}`;
    let title = this.titles.get(key);
    if (title === undefined) {
      const m = this.byId.get(r.moduleId);
      this.titles.set(key, (title = m ? fieldTitle(m, r.path) : null));
    }
    return title;
  }

  /** The path with a numeric column key replaced by its column label (`2` → `Customer Email`), else the path. */
  private named(r: FieldRef): string {
    const c = r.path.charCodeAt(0);
    if (c < 48 || c > 57) return r.path;
    let labels = this.columns.get(r.moduleId);
    if (labels === undefined) {
      const m = this.byId.get(r.moduleId);
      labels = m ? columnLabels(m) : null;
      this.columns.set(r.moduleId, labels);
    }
    if (!labels) return r.path;
    const dot = r.path.indexOf('.');
    const label = labels.get(dot < 0 ? r.path : r.path.slice(0, dot));
    return label === undefined ? r.path : dot < 0 ? label : label + r.path.slice(dot);
  }
}

/** A module's filter groups, then the condition groups of its if/else branches. */
function conditionGroups(m: ModuleNode): ModuleFilter['conditions'] {
  const out = [...(m.filter?.conditions ?? [])];
  for (const b of m.branches) if (b.condition) out.push(...b.condition.conditions);
  return out;
}

/** Capture labels naming a retelling of the parsed text (`Summary: (.*)` of an AI answer about a lead's messages): as personal as the text. */
const RETOLD = /^(?:summary|summaries|reply|replies|draft|translation|rewrite|rewritten)$/i;

/** Make *Text parser* modules whose output fields are the capture groups of a pattern (Make help, *Text parser*). */
const PARSERS: ReadonlySet<string> = new Set(['regexp:Parser', 'regexp:AdvancedParser']);

/** Field names that are ids, not words (a Google Forms question id `0e3657d9`, a sheet column `5`): their exported label is the field's title. */
const OPAQUE_NAME = /^(?:\d+|(?=[a-f-]*\d)[0-9a-f-]{6,40})$/i;

/**
 * The title of the field a path reads, from the module's output data structure
 * (`metadata.interface`): the label of the deepest segment whose name is an id. Google Forms
 * *Watch responses* exports each answer under its question id with the question as its label
 * (`answers.0e3657d9` → *¿Tienes algún tratamiento en curso o te han recomendado alguno?*); a sheet
 * exports numbered columns with their headers. `null` when the export has no such label.
 */
function fieldTitle(m: ModuleNode, path: string): string | null {
  let spec: unknown = m.metadata?.['interface'];
  let title: string | null = null;
  for (const raw of path.split('.')) {
    if (!Array.isArray(spec)) break;
    const name = raw.replace(/`/g, '').replace(/\[\]$/, '');
    const item: unknown = spec.find(
      (f: unknown) =>
        f !== null && typeof f === 'object' && !Array.isArray(f) && (f as Record<string, unknown>)['name'] === name,
    );
    if (item === undefined || item === null || typeof item !== 'object') break;
    const label = (item as Record<string, unknown>)['label'];
    if (typeof label === 'string' && OPAQUE_NAME.test(name)) title = label;
    spec = (item as Record<string, unknown>)['spec'];
  }
  return title;
}

/**
 * Labels of numbered columns from a module's output data structure (`metadata.interface`): Google
 * Sheets rows are mapped as `{{1.\`2\`}}` while the export labels column 2 `Customer Email (C)`
 * (corpus FORMAT.md "metadata.interface"). The trailing column letter and `?` are dropped.
 */
function columnLabels(m: ModuleNode): Map<string, string> | null {
  const spec = m.metadata?.['interface'];
  if (!Array.isArray(spec)) return null;
  let out: Map<string, string> | null = null;
  for (const f of spec) {
    if (!f || typeof f !== 'object' || Array.isArray(f)) continue;
    const name = f['name'];
    const label = f['label'];
    if (typeof name !== 'string' || typeof label !== 'string' || !/^\d+$/.test(name)) continue;
    const clean = label
      .replace(/\s*\([A-Z]{1,3}\)\s*$/, '')
      .replace(/[?.:]+$/, '')
      .trim();
    if (clean === '' || clean.length > 60 || /[.{}]/.test(clean)) continue;
    (out ??= new Map()).set(name, clean);
  }
  return out;
}

/**
 * How a module passes facts on to the modules that read it:
 * - `through`: transforms and flow modules (variables, JSON, text, iterators, aggregators) pass
 *   untrusted-ness, AI output and personal data on;
 * - `hop`: a conversion (a non-AI compute such as PDF or document conversion, OCR, code), a file
 *   staged for a model (an AI upload whose output is a `file`: Gemini / OpenAI *Upload a file*), or a
 *   download of a file the data names (a Drive *Download a file*, an HTTP *Get a file* of a mapped
 *   address): the same content in another form, so untrusted-ness and personal data pass on (issue
 *   32, "taint survives hops");
 * - `prompt`: an AI module passes on the personal data of its prompt (a summary of a personal
 *   e-mail is still personal data), not its untrusted-ness (`isAiDerived` tracks AI output);
 * - `store`: a data store read returns what the scenario's writes to the same store hold;
 * - `null`: any other module re-derives its output.
 */
function carrierOf(m: ModuleNode, source: ModuleSource | null): 'through' | 'hop' | 'prompt' | 'store' | null {
  const cls = classify(m);
  if (cls.role === 'transform' || cls.role === 'flow') return 'through';
  if (cls.ai) return cls.output === 'file' ? 'hop' : 'prompt';
  if (cls.effect === 'compute' && source === null) return 'hop';
  if (cls.effect !== 'read') return null;
  if (m.app === 'datastore') return 'store';
  return DOWNLOAD.test(m.action) || (cls.http && /^\s*\{\{/.test(moduleUrlText(m))) ? 'hop' : null;
}

/** Actions that download or export the file a reference names (`downloadAFile`, `getAFile`, `ActionGetFile`, `exportADocument`). */
const DOWNLOAD = /download|get_?a?_?file|getfile|export/i;

function moduleUrlText(m: ModuleNode): string {
  const url = m.mapper?.['url'] ?? m.parameters?.['url'];
  return typeof url === 'string' ? url : '';
}

/** The data store a Make data store module works on (`parameters.datastore`), `null` when none. */
function storeId(m: ModuleNode): string | null {
  const id = m.parameters?.['datastore'] ?? m.mapper?.['datastore'];
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : null;
}

/**
 * Where each module sits among router routes, to tell whether two modules can run in one path: a
 * module on route 1 of a router never sees the output of a module on route 2 of the same router
 * (Make runs each route with the bundle the router received; a mapping of a sibling route's module
 * is empty). Error routes follow the module that failed.
 */
class RouteChains {
  private readonly chains = new Map<string, ReadonlyMap<string, number>>();
  constructor(private readonly byId: ReadonlyMap<string, ModuleNode>) {}

  /** True when `targetId` sits on another route than `consumer` of a router both hang off. */
  apart(consumer: ModuleNode, targetId: string): boolean {
    if (consumer.depth === 0 && consumer.container === 'flow') return false;
    const target = this.byId.get(targetId);
    if (!target || target.depth === 0) return false;
    const mine = this.chain(consumer);
    for (const [router, route] of this.chain(target)) {
      const other = mine.get(router);
      if (other !== undefined && other !== route) return true;
    }
    return false;
  }

  /** Router id → route index, for every router route enclosing `m` (error routes follow the failed module). */
  private chain(m: ModuleNode): ReadonlyMap<string, number> {
    let c = this.chains.get(m.id);
    if (c) return c;
    const out = new Map<string, number>();
    for (let at: ModuleNode | undefined = m, hops = 0; at && hops < 64; hops++) {
      if (at.container === 'route' && at.parentId !== null && at.routeIndex !== null && !out.has(at.parentId))
        out.set(at.parentId, at.routeIndex);
      at = at.parentId !== null ? this.byId.get(at.parentId) : undefined;
    }
    this.chains.set(m.id, (c = out));
    return c;
  }
}
