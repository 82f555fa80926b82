/**
 * @module engine/policies/di/self-healing: a write whose failure loses nothing because the trigger
 * selects the same record again on the next run (issue 32, "self-healing writes"; DI-2).
 *
 * A scenario that starts by searching records on a condition (Google Sheets *Search rows* with a
 * filter, a data store or Airtable search, or a filter right after the first module) and then
 * updates the record it found, setting a field that condition reads (the status column that was
 * empty), works through a queue: when the update fails and its error is ignored, the field keeps its
 * old value, so the next run finds the record again and redoes the work. A *Watch* trigger does not
 * re-select (it remembers the last record it gave), so it never makes a write self-healing.
 */
import type { Analysis } from '../../analysis.js';
import type { Json, JsonObject, ModuleNode } from '../../blueprint/types.js';
import { classify } from '../../blueprint/classify.js';
import { isTargetKey } from '../sec/impact-detectors.js';

/**
 * True when write `m` updates the record the first module selected, setting a field the selection
 * reads: an ignored failure leaves the record selected for the next run.
 */
export function reselectedOnFailure(analysis: Analysis, m: ModuleNode): boolean {
  const first = analysis.first;
  if (!first || first === m || classify(first).effect !== 'read') return false;
  if (!updatesRecordOf(analysis, m, first)) return false;
  const selected = selectionFields(analysis, first);
  if (selected.size === 0) return false;
  return [...writtenFields(m)].some((f) => selected.has(f));
}

/** True when a target field of `m` (row number, record id, key) maps the output of `first`. */
function updatesRecordOf(analysis: Analysis, m: ModuleNode, first: ModuleNode): boolean {
  return analysis
    .dataflow()
    .refsOf(m.id)
    .some((r) => {
      if (r.moduleId !== first.id) return false;
      const key = r.pointer.slice(m.pointer.length).split('/')[2] ?? '';
      return isTargetKey(key);
    });
}

/**
 * The fields the first module selects on, normalised (`fieldKey`): the columns or fields of its own
 * search filter or formula, and those of filters on its output.
 */
function selectionFields(analysis: Analysis, first: ModuleNode): Set<string> {
  const out = new Set<string>();
  const own = first.mapper?.['filter'];
  for (const c of conditions(own)) if (typeof c['a'] === 'string' && !c['a'].includes('{{')) out.add(fieldKey(c['a']));
  const formula = first.mapper?.['formula'] ?? first.mapper?.['filterByFormula'];
  if (typeof formula === 'string') for (const [, name] of formula.matchAll(/\{([^{}]+)\}/g)) out.add(fieldKey(name!));
  const df = analysis.dataflow();
  for (const g of analysis.graph.modules)
    for (const r of df.filterRefsOf(g.id)) if (r.moduleId === first.id) out.add(fieldKey(r.path.split('.')[0]!));
  return out;
}

/** The fields a write sets (`values` of a sheet row, `record`, `fields` or `data` of a record), normalised. */
function writtenFields(m: ModuleNode): Set<string> {
  const out = new Set<string>();
  for (const key of ['values', 'record', 'fields', 'data']) {
    const v = m.mapper?.[key];
    if (v !== null && typeof v === 'object' && !Array.isArray(v))
      for (const [name, value] of Object.entries(v)) if (value !== '' && value !== null) out.add(fieldKey(name));
  }
  return out;
}

/** The condition objects of a filter written as OR-of-AND groups (`[[{a, o, b}]]`). */
function conditions(v: Json | undefined): JsonObject[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((g) =>
    Array.isArray(g) ? g.filter((c): c is JsonObject => c !== null && typeof c === 'object' && !Array.isArray(c)) : [],
  );
}

/**
 * One spelling for a field: a sheet column letter (`C`) becomes its 0-based index (`2`), as Make
 * keys row values; names lose case, backticks and separators (`` `Status` `` → `status`).
 */
function fieldKey(name: string): string {
  const n = name.replace(/`/g, '').trim();
  if (/^[A-Z]{1,2}$/.test(n)) {
    let index = 0;
    for (const ch of n) index = index * 26 + (ch.charCodeAt(0) - 64);
    return String(index - 1);
  }
  return n.toLowerCase().replace(/[\s_-]+/g, '');
}
