/**
 * @module engine/risk/path: a finding's evidence path (issue 32, CodeQL path-problem style): the
 * chain of modules that carries data from a source to a sink, along mapping references (module `b`
 * maps `{{a.field}}`: data moves from `a` to `b`).
 *
 * The contract with the policies: a policy may give a whole path, or only its source and sink, or
 * none; `completePath` (called by `evaluate.ts`) fills in the modules between two consecutive steps
 * that are not directly connected, and a short note on each step that has none.
 *
 * Cost: one breadth-first search per distinct (source, tier, field), linear in the references of
 * the scenario, cached for the evaluation (`Analysis.shared`); each path is then read back from the
 * search tree in O(its length). A 500-module blueprint with hundreds of findings from a few sources
 * costs a few linear passes, never one per pair, and all searches of an evaluation together examine
 * at most `SEARCH_BUDGET` edges.
 */
import type { Analysis } from '../analysis.js';
import type { EvidenceStep } from './types.js';
import { SharedKey } from '../analysis.js';
import { classify } from '../blueprint/classify.js';
import { isTechnicalField } from '../pii.js';

/**
 * Mapping edges the searches of one evaluation may examine in all, whatever the number of findings
 * and sources (a search examines each edge out of a module it passes through once). A 500-module
 * export has a few thousand references, so dozens of distinct sources fit many times over; past the
 * budget, paths not yet found fall back to their two ends. Bounds a pathological input (thousands
 * of sources on a dense graph) to linear work.
 */
export const SEARCH_BUDGET = 250_000;
/** Distinct reference paths kept per edge (for the note and the field preference); the rest are not needed. */
const MAX_PATHS = 32;

/** One mapping edge: `to` maps fields of the module it hangs off (`paths`, distinct, in document order). */
interface Edge {
  readonly to: string;
  readonly paths: string[];
  /** True when one of `paths` is content, not a technical field (`id`, `__IMTLENGTH__`, `status`). */
  content: boolean;
}

/**
 * The search tier. `carry`: intermediate modules are those that pass data on (transform and flow
 * modules, AI modules: the ones `dataflow.ts` propagates taint through) and edges carry content,
 * so the path follows the way the data really travels; `any`: any module and reference in between
 * (a record written and read back, a search keyed on the value), tried when the first finds nothing.
 */
type Tier = 'carry' | 'any';

/** Per evaluation: forward mapping edges by module id, and the search trees already grown. */
interface PathIndex {
  readonly forward: ReadonlyMap<string, readonly Edge[]>;
  /** `${tier}|${source}|${field}` → module id reached → [previous module id, the reference path it maps]. */
  readonly trees: Map<string, ReadonlyMap<string, readonly [string, string]>>;
  /** Edges the searches may still examine (`SEARCH_BUDGET`). */
  budget: number;
}

const PATH_INDEX = new SharedKey<PathIndex>('evidence paths');

/** `error`, `error.message`: in an error route, the failure of the module read, not its output (as `risk/audience.ts` isOutput). */
const isErrorRead = (path: string): boolean => path === 'error' || path.startsWith('error.');
/** A technical field (`pii.ts`), or Make's bundle metadata (`__IMTLENGTH__`, `__IMTINDEX__`). */
const technical = (path: string): boolean => path.includes('__IMT') || isTechnicalField(path);

/** Mapping edges of the scenario, built once per evaluation (O(references)); error reads are not data. */
function pathIndex(analysis: Analysis): PathIndex {
  return analysis.shared(PATH_INDEX, () => {
    const df = analysis.dataflow();
    const { byId } = analysis.graph;
    const forward = new Map<string, Edge[]>();
    for (const m of analysis.graph.modules) {
      const own = new Map<string, Edge>();
      for (const r of df.refsOf(m.id)) {
        if (r.moduleId === m.id || isErrorRead(r.path) || !byId.has(r.moduleId)) continue;
        let edge = own.get(r.moduleId);
        if (!edge) {
          edge = { to: m.id, paths: [], content: false };
          own.set(r.moduleId, edge);
          const list = forward.get(r.moduleId);
          if (list) list.push(edge);
          else forward.set(r.moduleId, [edge]);
        }
        if (edge.paths.length < MAX_PATHS && !edge.paths.includes(r.path)) edge.paths.push(r.path);
        if (!edge.content && !technical(r.path)) edge.content = true;
      }
    }
    return { forward, trees: new Map(), budget: SEARCH_BUDGET };
  });
}

/** True when a module may stand between source and sink in the `carry` tier. */
function carries(analysis: Analysis, id: string): boolean {
  const m = analysis.graph.byId.get(id);
  if (!m) return false;
  const c = classify(m);
  return c.role === 'transform' || c.role === 'flow' || c.ai;
}

/** True when reference path `p` reads `field` or a part of it or the object holding it (`answers` holds `answers.0.value`). */
function readsField(p: string, field: string): boolean {
  if (p === field) return true;
  const [short, long] = p.length < field.length ? [p, field] : [field, p];
  return long.startsWith(short) && (long[short.length] === '.' || long[short.length] === '[');
}

/** The path of an edge to show: one that reads `field` when given, else the first content path, else the first. */
function shownPath(edge: Edge, field: string | undefined): string {
  if (field !== undefined) {
    const p = edge.paths.find((x) => readsField(x, field));
    if (p !== undefined) return p;
  }
  return edge.paths.find((x) => !technical(x)) ?? edge.paths[0]!;
}

/**
 * The breadth-first search tree from `source` (cached): every module reached → its predecessor and
 * the reference it maps. With `field`, the first hop only takes edges that read that field.
 */
function searchTree(
  analysis: Analysis,
  index: PathIndex,
  source: string,
  tier: Tier,
  field: string | undefined,
): ReadonlyMap<string, readonly [string, string]> {
  const key = `${tier}|${source}|${field ?? ''}`;
  const cached = index.trees.get(key);
  if (cached) return cached;
  const tree = new Map<string, readonly [string, string]>();
  const queue = [source];
  const reached = new Set([source]);
  for (let head = 0; head < queue.length && index.budget > 0; head++) {
    const at = queue[head]!;
    // Every module reached is recorded (it may be the sink), but in the `carry` tier only carrying ones are passed through.
    if (at !== source && tier === 'carry' && !carries(analysis, at)) continue;
    for (const e of index.forward.get(at) ?? []) {
      if (--index.budget < 0) break;
      if (reached.has(e.to) || (tier === 'carry' && !e.content)) continue;
      const first = at === source ? field : undefined;
      if (first !== undefined && !e.paths.some((p) => readsField(p, first))) continue;
      reached.add(e.to);
      tree.set(e.to, [at, shownPath(e, first)]);
      queue.push(e.to);
    }
  }
  index.trees.set(key, tree);
  return tree;
}

/** The modules after `source` up to `sink`, each with the module before it and the reference it maps; `null` when none is found. */
function chainOf(
  analysis: Analysis,
  source: string,
  sink: string,
  field?: string,
): (readonly [id: string, from: string, path: string])[] | null {
  const { byId } = analysis.graph;
  if (!byId.has(source) || !byId.has(sink)) return null;
  const index = pathIndex(analysis);
  const fields = field === undefined ? [undefined] : [field, undefined];
  for (const f of fields)
    for (const tier of ['carry', 'any'] as const) {
      const tree = searchTree(analysis, index, source, tier, f);
      if (!tree.has(sink)) continue;
      const chain: [string, string, string][] = [];
      for (let at = sink; at !== source;) {
        const [prev, path] = tree.get(at)!;
        chain.push([at, prev, path]);
        at = prev;
      }
      return chain.reverse();
    }
  return null;
}

/** ``maps `{{3.text}}` ``: the note of a module that maps a field of the one before. */
const mapsNote = (from: string, path: string): string => `maps \`{{${from}.${path}}}\``;

/** The default note of a source: what it is (`sources.ts` label), else its module type. */
function sourceNote(analysis: Analysis, id: string): string {
  const label = analysis.dataflow().sourceOf(id)?.label;
  if (label !== undefined) return label;
  const m = analysis.graph.byId.get(id);
  return m ? `\`${m.type}\`` : `module ${id}`;
}

/** The note of a module with no chain from `from`. */
const unlinkedNote = (from: string): string => `receives data of module ${from}`;

/** Notes and the field preference of `evidencePath`. */
export interface PathNotes {
  /** The source's note (default: its kind, `an incoming e-mail (\`google-email:TriggerNewEmail\`)`, else its type). */
  readonly source?: string;
  /** The sink's note (default: the reference it maps, ``maps `{{3.text}}` ``). */
  readonly sink?: string;
  /** The source's output field the data leaves by (`answers.0e3657d9.value`): the first hop prefers a module that maps it. */
  readonly field?: string;
}

/**
 * The shortest chain of modules from `sourceId` to `sinkId` along mapping references, as evidence
 * steps `[source, ...steps, sink]` (roles `source`, `step`, `sink`). Modules that pass data on are
 * preferred as steps (see `Tier`), and with `notes.field` a first hop that maps that field; when no
 * chain exists (or the evaluation's `SEARCH_BUDGET` is spent), the two ends alone. Notes: the ones given
 * for the source and sink, else the defaults of `PathNotes`; a step's note is the reference that
 * carries the data to it. When `sourceId === sinkId`, one step, the sink. Never throws; an unknown
 * id gives the two-step fallback.
 */
export function evidencePath(
  analysis: Analysis,
  sourceId: string,
  sinkId: string,
  notes: PathNotes = {},
): EvidenceStep[] {
  if (sourceId === sinkId)
    return [{ moduleId: sinkId, role: 'sink', note: notes.sink ?? sourceNote(analysis, sinkId) }];
  const out: EvidenceStep[] = [
    { moduleId: sourceId, role: 'source', note: notes.source ?? sourceNote(analysis, sourceId) },
  ];
  const chain = chainOf(analysis, sourceId, sinkId, notes.field);
  if (chain === null) {
    out.push({ moduleId: sinkId, role: 'sink', note: notes.sink ?? unlinkedNote(sourceId) });
    return out;
  }
  for (let i = 0; i < chain.length; i++) {
    const [id, from, path] = chain[i]!;
    const last = i === chain.length - 1;
    out.push({
      moduleId: id,
      role: last ? 'sink' : 'step',
      note: last && notes.sink !== undefined ? notes.sink : mapsNote(from, path),
    });
  }
  return out;
}

/**
 * A policy's path made whole: between two consecutive steps that are not directly connected (the
 * second maps nothing of the first), the chain `evidencePath` finds is inserted as `step`s; steps on
 * modules the scenario does not have, and a repeat of the step before, are dropped; every step gets
 * a note (the policy's, else the default of `evidencePath`). The policy's own steps keep their roles
 * and notes. An empty path stays empty.
 */
export function completePath(analysis: Analysis, path: readonly EvidenceStep[]): EvidenceStep[] {
  const { byId } = analysis.graph;
  const given = path.filter((s, i) => byId.has(s.moduleId) && (i === 0 || s.moduleId !== path[i - 1]!.moduleId));
  if (given.length === 0) return [];
  const index = pathIndex(analysis);
  const noted = (s: EvidenceStep, note: string): EvidenceStep =>
    s.note !== undefined ? s : { moduleId: s.moduleId, role: s.role, note };
  const out: EvidenceStep[] = [noted(given[0]!, sourceNote(analysis, given[0]!.moduleId))];
  for (let i = 1; i < given.length; i++) {
    const prev = given[i - 1]!.moduleId;
    const step = given[i]!;
    const direct = index.forward.get(prev)?.find((e) => e.to === step.moduleId);
    if (direct !== undefined) {
      out.push(noted(step, mapsNote(prev, shownPath(direct, undefined))));
      continue;
    }
    const chain = chainOf(analysis, prev, step.moduleId);
    if (chain === null) {
      out.push(noted(step, unlinkedNote(prev)));
      continue;
    }
    for (let k = 0; k < chain.length - 1; k++) {
      const [id, from, p] = chain[k]!;
      out.push({ moduleId: id, role: 'step', note: mapsNote(from, p) });
    }
    const [, from, p] = chain[chain.length - 1]!;
    out.push(noted(step, mapsNote(from, p)));
  }
  return out;
}
