/** @module actors/scenarios: blueprint import (parse, validate, store as the next version); used by the admin CLI and bootstrap. */
import type { ScenarioRecord } from '../model/records.js';
import type { ScenariosRepository } from '../store/scenarios/repository.js';
import { parseBlueprint } from '../engine/index.js';

/** Thrown when a blueprint cannot be imported; `pointer` locates the first problem. */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super(message);
  }
}

/**
 * Imports (or re-imports as a new version) a blueprint into an organization. The raw JSON text is
 * stored as bytes and never re-serialised. @throws ImportError for invalid JSON or blueprint.
 */
export async function importScenario(
  scenarios: ScenariosRepository,
  orgId: string,
  scenarioId: string,
  blueprintJson: string,
  nowIso: string = new Date().toISOString(),
): Promise<ScenarioRecord> {
  let value: unknown;
  try {
    value = JSON.parse(blueprintJson);
  } catch (err) {
    throw new ImportError(`not valid JSON: ${err instanceof Error ? err.message : ''}`, '');
  }
  const parsed = parseBlueprint(value);
  if (!parsed.ok) throw new ImportError(parsed.error.message, parsed.error.issues[0]?.pointer ?? '');
  return scenarios.save({
    orgId,
    scenarioId,
    name: parsed.graph.name,
    blueprintJson,
    moduleCount: parsed.graph.modules.length,
    nowIso,
  });
}
