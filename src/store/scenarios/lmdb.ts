/** @module store/scenarios/lmdb: ScenariosRepository on LMDB (`scenarios`: `org\0scenario`; `blueprints`: `org\0scenario\0version` → raw JSON bytes). */
import type { ScenarioRecord } from '../../model/records.js';
import type { ScenarioVersion, ScenariosRepository } from './repository.js';
import type { LmdbTables } from '../lmdb/tables.js';
import { k } from '../lmdb/tables.js';
import { prefixRange } from '../lmdb/ranges.js';
import { countScenario, updateRollupMany } from '../lmdb/rollup-table.js';
import { releaseLatest } from '../lmdb/latest-results.js';
import { dropHistory, reindexFleet, storedFleetState } from '../fleet/lmdb.js';

/** Scenarios and blueprint versions in LMDB. */
export class LmdbScenarios implements ScenariosRepository {
  constructor(private readonly t: LmdbTables) {}

  get(orgId: string, scenarioId: string): ScenarioRecord | undefined {
    return this.t.scenarios.get(k(orgId, scenarioId));
  }

  blueprint(orgId: string, scenarioId: string, version: number): Uint8Array | undefined {
    return this.t.blueprints.getBinary(k(orgId, scenarioId, version));
  }

  async save(v: ScenarioVersion): Promise<ScenarioRecord> {
    const key = k(v.orgId, v.scenarioId);
    const record = await this.t.root.transaction(() => {
      const previous = this.t.scenarios.get(key);
      const next: ScenarioRecord = {
        org_id: v.orgId,
        scenario_id: v.scenarioId,
        name: v.name,
        version: (previous?.version ?? 0) + 1,
        imported_at: v.nowIso,
        module_count: v.moduleCount,
      };
      if (!previous) countScenario(this.t, v.orgId, 1, v.nowIso);
      reindexFleet(
        this.t,
        v.orgId,
        previous ? storedFleetState(this.t, previous) : null,
        storedFleetState(this.t, next),
      );
      void this.t.scenarios.put(key, next);
      void this.t.blueprints.put(k(v.orgId, v.scenarioId, next.version), Buffer.from(v.blueprintJson, 'utf8'));
      return next;
    });
    await this.t.flushed();
    return record;
  }

  list(orgId: string): ScenarioRecord[] {
    const out: ScenarioRecord[] = [];
    for (const { value } of prefixRange(this.t.scenarios, [orgId])) out.push(value);
    return out;
  }

  async delete(orgId: string, scenarioId: string, nowIso: string): Promise<boolean> {
    const key = k(orgId, scenarioId);
    const deleted = await this.t.root.transaction(() => {
      const record = this.t.scenarios.get(key);
      if (!record) return false;
      const result = this.t.results.get(key);
      reindexFleet(this.t, orgId, storedFleetState(this.t, record, result), null);
      dropHistory(this.t, orgId, scenarioId);
      if (result) updateRollupMany(this.t, orgId, [[result.contribution, null]], nowIso);
      countScenario(this.t, orgId, -1, nowIso);
      void this.t.scenarios.remove(key);
      void this.t.results.remove(key);
      // Results no evaluation keeps (moved from the legacy table, or of an evaluation deleted or retired) go with their scenario.
      releaseLatest(this.t, this.t.latestResults.get(key));
      void this.t.latestResults.remove(key);
      for (let v = 1; v <= record.version; v++) void this.t.blueprints.remove(k(orgId, scenarioId, v));
      return true;
    });
    if (deleted) await this.t.flushed();
    return deleted;
  }
}
