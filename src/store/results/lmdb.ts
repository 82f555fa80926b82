/**
 * @module store/results/lmdb: ResultsRepository on LMDB (`results`: `org\0scenario` → ResultRecord;
 * `latest-results`: `org\0scenario` → the `evaluation-results` key of the latest results; `rollups`).
 */
import { unpack } from 'msgpackr';
import type { RemediationMap, RollupRecord } from '../../model/records.js';
import type { ResultsRepository } from './repository.js';
import type { LmdbTables } from '../lmdb/tables.js';
import { k, readFast } from '../lmdb/tables.js';
import { recomputeRollup } from '../lmdb/rollup-table.js';

/** Latest results and rollups in LMDB. */
export class LmdbResults implements ResultsRepository {
  constructor(private readonly t: LmdbTables) {}

  /**
   * Follows the latest-results pointer to the evaluation's stored results, so results are stored
   * once, not once per view; the bytes are a view of LMDB's read buffer (no copy, no decode: the
   * hot read of GET /scenarios/{id}/results).
   */
  latestJson(orgId: string, scenarioId: string): Uint8Array | undefined {
    const latest = this.t.latestResults.get(k(orgId, scenarioId));
    return latest === undefined ? undefined : readFast(this.t.evaluationResults, latest);
  }

  remediation(orgId: string, scenarioId: string): RemediationMap | undefined {
    const stored = this.t.results.get(k(orgId, scenarioId))?.remediation;
    return stored === undefined ? undefined : (unpack(stored) as RemediationMap);
  }

  rollup(orgId: string): RollupRecord | undefined {
    return this.t.rollups.get(orgId);
  }

  computeRollup(orgId: string, nowIso: string): RollupRecord {
    return recomputeRollup(this.t, orgId, nowIso);
  }

  async rebuildRollup(orgId: string, nowIso: string): Promise<RollupRecord> {
    const rebuilt = await this.t.root.transaction(() => {
      const r = recomputeRollup(this.t, orgId, nowIso);
      void this.t.rollups.put(orgId, r);
      return r;
    });
    await this.t.flushed();
    return rebuilt;
  }
}
