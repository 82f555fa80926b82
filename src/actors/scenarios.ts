/** @module actors/scenarios: stored scenarios (import, list, delete); used by the admin CLI, bootstrap and save_to_workspace. */
import type { ScenarioRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { k } from '../store/store.js';
import { prefixRange } from '../store/ranges.js';
import { parseBlueprint } from '../engine/index.js';
import { countScenario, updateRollup } from './rollup.js';

/** Thrown when a blueprint cannot be imported; `pointer` locates the first problem. */
export class ImportError extends Error {
  constructor(message: string, readonly pointer: string) {
    super(message);
  }
}

/**
 * Imports (or re-imports as a new version) a blueprint into an organization. The raw JSON text is
 * stored as bytes and never re-serialised. @throws ImportError for invalid JSON or blueprint.
 */
export async function importScenario(store: Store, orgId: string, scenarioId: string, blueprintJson: string, nowIso: string = new Date().toISOString()): Promise<ScenarioRecord> {
  let value: unknown;
  try {
    value = JSON.parse(blueprintJson);
  } catch (err) {
    throw new ImportError(`not valid JSON: ${err instanceof Error ? err.message : ''}`, '');
  }
  const parsed = parseBlueprint(value);
  if (!parsed.ok) throw new ImportError(parsed.error.message, parsed.error.issues[0]?.pointer ?? '');
  return saveScenario(store, orgId, scenarioId, parsed.graph.name, blueprintJson, parsed.graph.modules.length, nowIso);
}

/** Stores an already-validated blueprint as the next version of a scenario. */
export async function saveScenario(store: Store, orgId: string, scenarioId: string, name: string, blueprintJson: string, moduleCount: number, nowIso: string): Promise<ScenarioRecord> {
  let record: ScenarioRecord | null = null;
  await store.root.transaction(() => {
    const previous = store.scenarios.get(k(orgId, scenarioId));
    record = { org_id: orgId, scenario_id: scenarioId, name, version: (previous?.version ?? 0) + 1, imported_at: nowIso, module_count: moduleCount };
    if (!previous) countScenario(store, orgId, 1, nowIso);
    void store.scenarios.put(k(orgId, scenarioId), record);
    void store.blueprints.put(k(orgId, scenarioId, record.version), Buffer.from(blueprintJson, 'utf8'));
  });
  await store.flushed();
  return record!;
}

/** Scenarios of an organization, by id. */
export function listScenarios(store: Store, orgId: string): ScenarioRecord[] {
  const out: ScenarioRecord[] = [];
  for (const { value } of prefixRange(store.scenarios, [orgId])) out.push(value);
  return out;
}

/** Deletes a scenario, its blueprint versions and its latest results. @returns false when unknown. */
export async function deleteScenario(store: Store, orgId: string, scenarioId: string): Promise<boolean> {
  const record = store.scenarios.get(k(orgId, scenarioId));
  if (!record) return false;
  const nowIso = new Date().toISOString();
  await store.root.transaction(() => {
    const result = store.results.get(k(orgId, scenarioId));
    if (result) updateRollup(store, orgId, result.contribution, null, nowIso);
    countScenario(store, orgId, -1, nowIso);
    void store.scenarios.remove(k(orgId, scenarioId));
    void store.results.remove(k(orgId, scenarioId));
    void store.latestResults.remove(k(orgId, scenarioId));
    void store.resultViews.remove(k(orgId, scenarioId));
    for (let v = 1; v <= record.version; v++) void store.blueprints.remove(k(orgId, scenarioId, v));
  });
  await store.flushed();
  return true;
}
