/** @module store/lmdb/rollup-table: the `rollups` table, changed inside the transactions of the scenario and evaluation repositories. */
import type { RollupContribution, RollupRecord } from '../../model/records.js';
import type { LmdbTables } from './tables.js';
import { applyContribution, applyContributions, emptyRollup } from '../rollup.js';
import { prefixKeys } from './ranges.js';

/** Changes `scenarios_total` by `delta` (import of a new scenario: +1, delete: −1). Call inside a write transaction. */
export function countScenario(t: LmdbTables, orgId: string, delta: 1 | -1, nowIso: string): void {
  const cur = t.rollups.get(orgId) ?? emptyRollup(orgId, nowIso);
  t.rollups.putSync(orgId, { ...cur, scenarios_total: Math.max(0, cur.scenarios_total + delta), updated_at: nowIso });
}

/**
 * Replaces several scenarios' contributions (`[old, next]` pairs) with one read and one write of the
 * organization's rollup: a turn that lands the results of fifty scenarios decodes and encodes the
 * rollup (a msgpack map per policy and gap) once instead of fifty times. Call inside a write
 * transaction.
 */
export function updateRollupMany(
  t: LmdbTables,
  orgId: string,
  changes: readonly (readonly [RollupContribution | null, RollupContribution | null])[],
  nowIso: string,
): void {
  if (changes.length === 0) return;
  t.rollups.putSync(orgId, applyContributions(t.rollups.get(orgId) ?? emptyRollup(orgId, nowIso), changes, nowIso));
}

/** Rebuilds an organization's rollup from its stored scenarios and results (O(fleet)). */
export function recomputeRollup(t: LmdbTables, orgId: string, nowIso: string): RollupRecord {
  let r = emptyRollup(orgId, nowIso);
  let total = 0;
  for (const key of prefixKeys(t.scenarios, [orgId])) {
    total++;
    const result = t.results.get(key);
    if (result) r = applyContribution(r, null, result.contribution, nowIso);
  }
  return { ...r, scenarios_total: total };
}
