/**
 * @module cli/scan/locate: each finding of an evaluated file → its JSON Pointer and region, for SARIF.
 * One jsonc-parser pass over the text per file (src/cli/scan/source-map.ts), whatever the number of
 * findings.
 */
import type { ScenarioEvaluation } from '../../engine/index.js';
import type { FindingLocation } from './file-result.js';
import { modulePointers, regionsOf } from './source-map.js';

/** Where `locateScan` found things: each finding by fingerprint, and each module of an evidence path by module id. */
export interface ScanLocations {
  readonly findings: Map<string, FindingLocation>;
  /** The modules named in the findings' evidence paths (issue 32): their `module` line, else the module object. */
  readonly modules: Map<string, FindingLocation>;
  /** The further places of findings reported once for several (`evidence.locations`, issue 32), by JSON Pointer. */
  readonly places: Map<string, FindingLocation>;
}

/**
 * The location of every finding of `evaluation` by fingerprint (a failing module's finding, or the
 * violation itself when it names no module). The pointer located is, first found: the finding's
 * evidence pointer (unless it is the module object itself); its module's `module` member (the line that names the app and action, which
 * GitHub shows as the alert's snippet); the module object; the whole document (a scenario-wide
 * finding). `blueprint` is `text` parsed (the module ids are read from it).
 */
export function locateFindings(
  text: string,
  blueprint: unknown,
  evaluation: ScenarioEvaluation,
): Map<string, FindingLocation> {
  return locateScan(text, blueprint, evaluation).findings;
}

/**
 * `locateFindings`, and in the same pass over the text the location of every module of the
 * findings' evidence paths (SARIF `codeFlows`): its `module` member, else the module object, else the
 * whole document.
 */
export function locateScan(text: string, blueprint: unknown, evaluation: ScenarioEvaluation): ScanLocations {
  const modules = modulePointers(blueprint);
  const modulePointerSet = new Set(modules.values());
  const wanted: { fingerprint: string; candidates: string[] }[] = [];
  const stepModules = new Map<string, string[]>();
  const places = new Set<string>();
  for (const v of evaluation.violations) {
    if (v.failing_modules.length === 0) {
      wanted.push({ fingerprint: v.fingerprint, candidates: v.evidence ? [v.evidence.pointer, ''] : [''] });
      continue;
    }
    for (const m of v.failing_modules) {
      const at = modules.get(m.module_id);
      // Evidence that is the module object itself is shown, as a module without evidence, at its `module` line.
      const evidence = m.evidence && !modulePointerSet.has(m.evidence.pointer) ? [m.evidence.pointer] : [];
      const candidates = [...evidence];
      if (at !== undefined) candidates.push(`${at}/module`, at);
      candidates.push('');
      wanted.push({ fingerprint: m.fingerprint, candidates });
      for (const l of m.evidence?.locations?.slice(1) ?? []) places.add(l.pointer);
      for (const step of m.evidence?.path ?? []) {
        if (stepModules.has(step.module_id)) continue;
        const where = modules.get(step.module_id);
        stepModules.set(step.module_id, where === undefined ? [''] : [`${where}/module`, where, '']);
      }
    }
  }
  const out: ScanLocations = { findings: new Map(), modules: new Map(), places: new Map() };
  if (wanted.length === 0) return out;
  const regions = regionsOf(text, [
    ...wanted.flatMap((w) => w.candidates),
    ...[...stepModules.values()].flat(),
    ...places,
  ]);
  const first = (candidates: readonly string[]): FindingLocation | undefined => {
    for (const pointer of candidates) {
      const region = regions.get(pointer);
      if (region) return { pointer, region };
    }
    return undefined;
  };
  for (const w of wanted) {
    const at = first(w.candidates);
    if (at) out.findings.set(w.fingerprint, at);
  }
  for (const [id, candidates] of stepModules) {
    const at = first(candidates);
    if (at) out.modules.set(id, at);
  }
  for (const pointer of places) {
    const at = first([pointer]);
    if (at) out.places.set(pointer, at);
  }
  return out;
}
