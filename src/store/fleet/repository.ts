/**
 * @module store/fleet/repository: the fleet read model of the console (issue 18): the scenario list
 * sorted, filtered and paged from sort indexes, each scenario's evaluation history and the
 * organization's evaluations per day. Written by the transactions (LMDB) and scripts (Redis) that
 * import or delete a scenario and that land its latest results or complete an evaluation, so a read
 * never scans the fleet (store/fleet/keys has the index layout).
 */
import type { ScenarioBadge, SeverityName } from '../../model/records.js';
import type { Awaitable } from '../awaitable.js';

/** The sorts of `GET /scenarios`. */
export const FLEET_SORTS = ['name', 'score', 'badge', 'evaluated_at', 'violations'] as const;
export type FleetSort = (typeof FLEET_SORTS)[number];
/** The badge filter values (`unknown`: see ScenarioBadge). */
export const FLEET_BADGES = ['critical', 'high', 'medium', 'low', 'info', 'clean', 'unknown', 'not_evaluated'] as const;
export type FleetBadge = (typeof FLEET_BADGES)[number];

/** Most history entries kept per scenario (the newest; older ones are trimmed by the write that adds one). */
export const HISTORY_LIMIT = 50;
/**
 * Most index entries one `q` search reads (the name index for the matches, then the sort index for
 * the page): a substring cannot be looked up in an index. Past it, `total` is a lower bound
 * (`total_exact` false) and a page may hold fewer rows than asked, with a cursor to go on.
 */
export const SEARCH_SCAN_LIMIT = 50_000;

/** A `page` query. */
export interface FleetQuery {
  /** Case-insensitive substring of the name (its first 200 characters) or id; '' or undefined: none. */
  readonly q?: string;
  readonly badge?: FleetBadge;
  readonly sort: FleetSort;
  readonly order: 'asc' | 'desc';
  /** 1-200. */
  readonly limit: number;
  /** The member tail of a cursor (store/fleet/keys `decodeCursor`): the page starts after it. */
  readonly after?: string;
}

/** One row of the list. */
export interface FleetRow {
  readonly scenario_id: string;
  readonly name: string;
  readonly score: number | null;
  readonly badge: ScenarioBadge | null;
  readonly evaluated_at: string | null;
  /** Counted violations by severity (0 when never evaluated; null where an older stored result does not tell). */
  readonly violations: Readonly<Record<SeverityName, number | null>>;
  readonly module_count: number;
}

/** One page. */
export interface FleetPage {
  readonly rows: readonly FleetRow[];
  /** Matches of the whole query (every page). */
  readonly total: number;
  /** False when a `q` search stopped at SEARCH_SCAN_LIMIT: `total` is then a lower bound. */
  readonly totalExact: boolean;
  /** The cursor of the next page (store/fleet/keys `encodeCursor`), or null at the end. */
  readonly nextCursor: string | null;
}

/** One evaluation of a scenario. */
export interface HistoryEntry {
  readonly evaluation_id: string;
  readonly evaluated_at: string;
  readonly score: number;
  readonly violations: Readonly<Record<SeverityName, number | null>>;
}

/** Evaluations completed on one UTC day. */
export interface DayCount {
  /** `YYYY-MM-DD`. */
  readonly day: string;
  /** Evaluations that became `complete`. */
  readonly evaluations: number;
  /** Their scenarios. */
  readonly scenarios: number;
}

/** The fleet read model. */
export interface FleetRepository {
  /** A page of the organization's scenarios; O(limit) index reads without `q`, at most SEARCH_SCAN_LIMIT with it. */
  page(orgId: string, query: FleetQuery): Awaitable<FleetPage>;
  /**
   * A scenario's evaluations, newest first (at most HISTORY_LIMIT): every evaluation whose results
   * landed while the scenario existed at the version evaluated. Entries stay when retention deletes
   * their evaluation (the evaluation's status may then be gone); they go with the scenario.
   */
  history(orgId: string, scenarioId: string): Awaitable<HistoryEntry[]>;
  /** Counts for `days` (`YYYY-MM-DD`), in that order; days without any are zeros. */
  evaluationDays(orgId: string, days: readonly string[]): Awaitable<DayCount[]>;
}
