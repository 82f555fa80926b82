/**
 * @module store/lmdb/migrate: one-time upgrades of data written by earlier versions, run when the
 * environment opens (in one synchronous write transaction, under LMDB's cross-process write lock,
 * so concurrent processes run each at most once).
 */
import { pack } from 'msgpackr';
import type { ResultRecord } from '../../model/records.js';
import type { LmdbTables } from './tables.js';
import { timeKey } from './tables.js';
import { retiredAtMs } from '../evaluations/retirement.js';
import { reindexFleet, storedFleetState } from '../fleet/lmdb.js';
import { recomputeRollup } from './rollup-table.js';

/** Prefix of the `evaluation-results` keys of views moved from the legacy table (they belong to no evaluation). */
export const LEGACY_PREFIX = 'legacy\u0000';

/** Migrations by `meta` key, in the order they run (not their names' order); each runs once per environment. */
const MIGRATIONS: readonly (readonly [string, (t: LmdbTables) => void])[] = [
  ['migration:2026-11-22-result-views', moveResultViews],
  ['migration:2026-11-26-completions', indexCompletions],
  ['migration:2026-12-01-fleet-index', indexFleet],
  ['migration:2026-11-28-rollup-badges', rebuildRollups],
];

/** Runs the migrations this environment has not run yet. */
export function migrate(t: LmdbTables): void {
  for (const [name, run] of MIGRATIONS) {
    if (t.meta.get(name) !== undefined) continue;
    t.root.transactionSync(() => {
      if (t.meta.get(name) !== undefined) return;
      run(t);
      void t.meta.put(name, new Date().toISOString());
    });
  }
}

/**
 * Before 2026-11-22 a scenario's latest results were stored twice (in `result-views` by scenario as
 * well as by evaluation) and remediation as a plain map. Each legacy view moves into
 * `evaluation-results` under `legacy\0org\0scenario` with the latest-results pointer at it (unless
 * a newer pointer exists); remediation maps are packed; the legacy table is emptied.
 */
function moveResultViews(t: LmdbTables): void {
  const legacy = t.root.openDB<Uint8Array, string>({ name: 'result-views', encoding: 'binary' });
  for (const { key, value } of legacy.getRange()) {
    if (t.latestResults.get(key) === undefined) {
      const moved = LEGACY_PREFIX + key;
      void t.evaluationResults.put(moved, value);
      void t.latestResults.put(key, moved);
    }
    void legacy.remove(key);
  }
  for (const { key, value } of t.results.getRange()) {
    const remediation = value.remediation as unknown;
    if (remediation instanceof Uint8Array) continue;
    const packed: ResultRecord = { ...value, remediation: pack(remediation) };
    void t.results.put(key, packed);
  }
}

/**
 * Before 2026-11-26 terminal evaluations were not indexed by completion time (retention,
 * `EVALUATION_RETENTION_DAYS`): every stored terminal evaluation gets its `completions` entry, so
 * that retention reaches the evaluations kept before the upgrade too. Reads every evaluation once;
 * from then on the terminal commit writes the entry.
 */
function indexCompletions(t: LmdbTables): void {
  for (const { key, value } of t.evaluations.getRange()) {
    if (typeof key !== 'string') continue; // the shared msgpack structures
    const retiredAt = retiredAtMs(value);
    if (retiredAt !== null) void t.completions.put(timeKey(retiredAt, value.evaluation_id), '');
  }
}

/**
 * Before issue 18 scenarios had no fleet sort-index entries (store/fleet/keys): every stored
 * scenario gets its entries from its record and latest results. Histories and the evaluations per
 * day start empty (they are not derivable from what was kept). The rollups' badge counts follow
 * (rebuildRollups).
 */
function indexFleet(t: LmdbTables): void {
  for (const { key, value } of t.scenarios.getRange()) {
    if (typeof key !== 'string' && !Array.isArray(key)) continue; // the shared msgpack structures
    reindexFleet(t, value.org_id, null, storedFleetState(t, value));
  }
}

/**
 * Before issue 18 rollups had no `badges` (scenarios by worst badge, the console overview's counts),
 * and the commits after an upgrade only added and removed the badges of the scenarios they
 * evaluated: the counts stayed wrong (all 0 on the data kept) until `admin rollup rebuild`
 * (issue 31, item 8). Every organization's rollup is rebuilt from its scenarios' latest
 * contributions, as `rollup rebuild` does (a contribution of that time without a badge counts as
 * `badgeOf` derives it: `clean`, `critical` or `unknown`); its `updated_at` stays, since the fleet
 * did not change. Reads every scenario once.
 */
function rebuildRollups(t: LmdbTables): void {
  const orgs = new Set<string>();
  for (const key of t.orgs.getKeys()) if (typeof key === 'string') orgs.add(key);
  for (const key of t.rollups.getKeys()) if (typeof key === 'string') orgs.add(key);
  for (const orgId of orgs) {
    const stored = t.rollups.get(orgId);
    const rebuilt = recomputeRollup(t, orgId, stored?.updated_at ?? new Date().toISOString());
    if (stored || rebuilt.scenarios_total > 0) t.rollups.putSync(orgId, rebuilt);
  }
}
