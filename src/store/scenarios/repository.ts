/** @module store/scenarios/repository: the scenarios aggregate: scenario metadata and every blueprint version, stored as imported. */
import type { ScenarioRecord } from '../../model/records.js';
import type { Awaitable } from '../awaitable.js';

/** What a new blueprint version is stored with. */
export interface ScenarioVersion {
  readonly orgId: string;
  readonly scenarioId: string;
  /** The scenario's name (from the blueprint). */
  readonly name: string;
  /** The blueprint JSON text exactly as imported (stored as UTF-8 bytes, never re-serialised). */
  readonly blueprintJson: string;
  readonly moduleCount: number;
  /** ISO 8601 time of the import. */
  readonly nowIso: string;
}

/**
 * Stored scenarios. A scenario's import and deletion also keep the organization rollup's
 * `scenarios_total` (and, on deletion, its contribution) in the same transaction.
 */
export interface ScenariosRepository {
  get(orgId: string, scenarioId: string): Awaitable<ScenarioRecord | undefined>;
  /** The blueprint bytes of one version (a copy), or undefined. */
  blueprint(orgId: string, scenarioId: string, version: number): Awaitable<Uint8Array | undefined>;
  /** Stores `version` as the scenario's next version (1 for a new scenario). Resolves once durable. */
  save(version: ScenarioVersion): Promise<ScenarioRecord>;
  /** An organization's scenarios, by id. */
  list(orgId: string): Awaitable<ScenarioRecord[]>;
  /**
   * Deletes a scenario, every blueprint version and its latest results, and removes its contribution
   * from the rollup. Resolves once durable. @returns false when the scenario does not exist.
   */
  delete(orgId: string, scenarioId: string, nowIso: string): Promise<boolean>;
}
