/**
 * @module store/fleet/lmdb: FleetRepository on LMDB (`fleet-index`, `scenario-history`,
 * `evaluation-days`; store/lmdb/tables), and the writes that keep them, called inside the write
 * transactions of the scenario and evaluation repositories.
 */
import type { EvaluationRecord, ResultRecord, ScenarioRecord } from '../../model/records.js';
import type { DayCount, FleetPage, FleetQuery, FleetRepository, FleetRow, HistoryEntry } from './repository.js';
import type { FleetState } from './keys.js';
import type { LmdbTables } from '../lmdb/tables.js';
import { HISTORY_LIMIT, SEARCH_SCAN_LIMIT } from './repository.js';
import {
  badgeOf,
  encodeCursor,
  fleetChanges,
  fleetState,
  idSearchKey,
  memberId,
  memberNameKey,
  severitiesOf,
  sortRange,
} from './keys.js';
import { k } from '../lmdb/tables.js';

const EMPTY = Buffer.alloc(0);
const bin = (s: string): Buffer => Buffer.from(s, 'utf8');

/** Replaces a scenario's index entries (`before`/`after` null: none). Call inside a write transaction. */
export function reindexFleet(t: LmdbTables, orgId: string, before: FleetState | null, after: FleetState | null): void {
  const { gone, added } = fleetChanges(before, after);
  for (const m of gone) t.fleetIndex.removeSync(bin(`${orgId}\u0000${m}`));
  for (const m of added) t.fleetIndex.putSync(bin(`${orgId}\u0000${m}`), EMPTY);
}

/** The index state of a stored scenario with its latest results, read inside the caller's transaction. */
export function storedFleetState(t: LmdbTables, s: ScenarioRecord, result?: ResultRecord): FleetState {
  return fleetState(s, result ?? t.results.get(k(s.org_id, s.scenario_id)));
}

const historyPrefix = (orgId: string, scenarioId: string) => `${orgId}\u0000${scenarioId}\u0000`;

/**
 * Adds a history entry and trims the scenario's history to the newest HISTORY_LIMIT. Call inside a
 * write transaction. The newest HISTORY_LIMIT entries are skipped inside LMDB (the range's `offset`),
 * so only the entries to remove reach JavaScript: stepping over the 50 kept keys one by one was a
 * quarter of the main thread's commit work per scenario (issue 20, item 4).
 */
export function recordHistory(t: LmdbTables, orgId: string, scenarioId: string, entry: HistoryEntry): void {
  const prefix = historyPrefix(orgId, scenarioId);
  t.scenarioHistory.putSync(bin(`${prefix}${entry.evaluated_at}\u0000${entry.evaluation_id}`), entry);
  for (const key of [
    ...t.scenarioHistory.getKeys({
      start: bin(`${orgId}\u0000${scenarioId}\u0001`),
      end: bin(prefix),
      reverse: true,
      offset: HISTORY_LIMIT,
    }),
  ])
    t.scenarioHistory.removeSync(key);
}

/** Removes a scenario's history. Call inside a write transaction. */
export function dropHistory(t: LmdbTables, orgId: string, scenarioId: string): void {
  const prefix = historyPrefix(orgId, scenarioId);
  for (const key of [
    ...t.scenarioHistory.getKeys({ start: bin(prefix), end: bin(`${orgId}\u0000${scenarioId}\u0001`) }),
  ])
    t.scenarioHistory.removeSync(key);
}

/** Counts an evaluation that became `complete` on its completion day. Call inside a write transaction. */
export function countCompletion(t: LmdbTables, record: EvaluationRecord): void {
  const day = (record.completed_at ?? record.updated_at).slice(0, 10);
  const key = k(record.org_id, day);
  const cur = t.evaluationDays.get(key) ?? { e: 0, s: 0 };
  t.evaluationDays.putSync(key, { e: cur.e + 1, s: cur.s + record.total_scenarios });
}

/** The fleet read model in LMDB. */
export class LmdbFleet implements FleetRepository {
  constructor(private readonly t: LmdbTables) {}

  page(orgId: string, query: FleetQuery): FleetPage {
    const group = query.badge ?? 'all';
    const q = query.q?.toLowerCase() ?? '';
    const { prefix, end } = sortRange(group, query.sort);
    const lo = bin(`${orgId}\u0000${prefix}`);
    const hi = bin(`${orgId}\u0000${end}`);
    let matches: Set<string> | null = null;
    let total: number;
    let totalExact = true;
    let budget = SEARCH_SCAN_LIMIT;
    const names = sortRange(group, 'name');
    const namesRange = { start: bin(`${orgId}\u0000${names.prefix}`), end: bin(`${orgId}\u0000${names.end}`) };
    // Every scenario of the group has one name entry: counting them (in LMDB's C code) is the total.
    if (q === '') total = this.t.fleetIndex.getKeysCount(namesRange);
    else {
      matches = new Set<string>();
      for (const key of this.t.fleetIndex.getKeys(namesRange)) {
        if (--budget < 0) {
          totalExact = false;
          break;
        }
        const member = key.toString('utf8').slice(orgId.length + 1);
        const id = memberId(member);
        if (memberNameKey(member).includes(q) || idSearchKey(id).includes(q)) matches.add(id);
      }
      total = matches.size;
      budget = SEARCH_SCAN_LIMIT;
    }
    const after = query.after === undefined ? null : bin(`${orgId}\u0000${prefix}${query.after}`);
    const desc = query.order === 'desc';
    const range = desc
      ? { start: after ?? hi, end: lo, reverse: true, exclusiveStart: true }
      : after
        ? { start: after, end: hi, exclusiveStart: true }
        : { start: lo, end: hi };
    const picked: string[] = [];
    let last: string | null = null;
    let more = false;
    for (const key of this.t.fleetIndex.getKeys(range)) {
      const member = key.toString('utf8').slice(orgId.length + 1);
      if (matches !== null && --budget < 0) {
        more = true; // stopped by the scan bound: the cursor goes on from the last entry read
        break;
      }
      if (matches !== null && !matches.has(memberId(member))) {
        last = member;
        continue;
      }
      if (picked.length === query.limit) {
        more = true;
        break;
      }
      picked.push(member);
      last = member;
    }
    const rows = picked.map((m) => this.row(orgId, memberId(m))).filter((r): r is FleetRow => r !== undefined);
    return { rows, total, totalExact, nextCursor: more && last !== null ? encodeCursor(last) : null };
  }

  private row(orgId: string, scenarioId: string): FleetRow | undefined {
    const s = this.t.scenarios.get(k(orgId, scenarioId));
    if (!s) return undefined;
    const r = this.t.results.get(k(orgId, scenarioId));
    return fleetRow(s, r);
  }

  history(orgId: string, scenarioId: string): HistoryEntry[] {
    const prefix = historyPrefix(orgId, scenarioId);
    const out: HistoryEntry[] = [];
    for (const { value } of this.t.scenarioHistory.getRange({
      start: bin(`${orgId}\u0000${scenarioId}\u0001`),
      end: bin(prefix),
      reverse: true,
      limit: HISTORY_LIMIT,
    }))
      out.push(value);
    return out;
  }

  evaluationDays(orgId: string, days: readonly string[]): DayCount[] {
    return days.map((day) => {
      const c = this.t.evaluationDays.get(k(orgId, day));
      return { day, evaluations: c?.e ?? 0, scenarios: c?.s ?? 0 };
    });
  }
}

/** The row of a scenario and its latest results. */
export function fleetRow(
  s: ScenarioRecord,
  r: Pick<ResultRecord, 'contribution' | 'evaluated_at'> | undefined,
): FleetRow {
  return {
    scenario_id: s.scenario_id,
    name: s.name,
    score: r ? r.contribution.score : null,
    badge: r ? badgeOf(r.contribution) : null,
    evaluated_at: r ? r.evaluated_at : null,
    violations: r ? severitiesOf(r.contribution) : { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
    module_count: s.module_count,
  };
}
