/**
 * @module cli/scan/locate: each finding of an evaluated file → its JSON Pointer and region, for SARIF.
 * One jsonc-parser pass over the text per file (src/cli/scan/source-map.ts), whatever the number of
 * findings.
 */
import type { ScenarioEvaluation } from '../../engine/index.js';
import type { FindingLocation } from './file-result.js';
import { modulePointers, regionsOf } from './source-map.js';

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
  const modules = modulePointers(blueprint);
  const modulePointerSet = new Set(modules.values());
  const wanted: { fingerprint: string; candidates: string[] }[] = [];
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
    }
  }
  const out = new Map<string, FindingLocation>();
  if (wanted.length === 0) return out;
  const regions = regionsOf(
    text,
    wanted.flatMap((w) => w.candidates),
  );
  for (const w of wanted)
    for (const pointer of w.candidates) {
      const region = regions.get(pointer);
      if (region) {
        out.set(w.fingerprint, { pointer, region });
        break;
      }
    }
  return out;
}
