/**
 * @module store/fleet/keys: the fleet read model's shared arithmetic (issue 18, console "Scenario
 * list"): a scenario's row state, its worst badge, and the sort-index members both backends write
 * and range over, byte for byte the same (LMDB binary keys `org\0<member>`, Redis members of the
 * sorted set `P{org}:fleet`, all scored 0 and read with ZRANGEBYLEX). Pure.
 *
 * Member: `<group>\0<field>\0<sort key>\0<scenario id>`, `group` `all` or the scenario's badge
 * (`not_evaluated` when never evaluated), `field` one per sort. Every scenario has one member per
 * field in `all` and in its badge's group (10 in all), so a badge filter is a range too. Sort keys:
 * `n` the lower-cased name (first 200 characters), `s` the score zero-padded to 3 digits, `b` the
 * badge rank (BADGE_RANK), `e` `evaluated_at` (ISO 8601 sorts by time), `v` the counted violations
 * zero-padded to 6 digits; `~` (after every digit and ISO time) for never evaluated. UTF-8 byte
 * order is code point order, the order of both backends.
 */
import type { FleetSort, HistoryEntry } from './repository.js';
import type {
  ResultRecord,
  RollupContribution,
  ScenarioBadge,
  ScenarioRecord,
  SeverityName,
} from '../../model/records.js';

// The sorts and badges are part of the repository's contract; re-exported for the index code.
export { FLEET_BADGES, FLEET_SORTS } from './repository.js';
export type { FleetBadge, FleetSort } from './repository.js';
/** Severities, worst first. */
export const SEVERITY_NAMES: readonly SeverityName[] = ['critical', 'high', 'medium', 'low', 'info'];

/** Field letter of each sort in a member. */
export const SORT_FIELD: Readonly<Record<FleetSort, string>> = {
  name: 'n',
  score: 's',
  badge: 'b',
  evaluated_at: 'e',
  violations: 'v',
};
const FIELDS = ['n', 's', 'b', 'e', 'v'] as const;
/** Badge order for `sort=badge` (ascending: clean first, critical last). */
export const BADGE_RANK: Readonly<Record<ScenarioBadge, string>> = {
  clean: '0',
  unknown: '1',
  info: '2',
  low: '3',
  medium: '4',
  high: '5',
  critical: '6',
};
/** Characters of a name that take part in its sort key and in `q` matching. */
export const NAME_KEY_UNITS = 200;
/** The sort key of "never evaluated": after every digit and ISO time. */
export const NONE_KEY = '~';

/**
 * The worst badge of a contribution: its `badge`, else derived from what older contributions hold
 * (no violation: `clean`; a critical one: `critical`; else `unknown`). The Lua `fleet_badge` is the same.
 */
export function badgeOf(c: RollupContribution): ScenarioBadge {
  if (c.badge !== undefined) return c.badge;
  if (c.violations === 0) return 'clean';
  return c.critical > 0 ? 'critical' : 'unknown';
}

/** The name's sort and search key: lower-cased (Unicode), U+0000 as a space, its first NAME_KEY_UNITS units. */
export function nameKey(name: string): string {
  return name.toLowerCase().replaceAll('\u0000', ' ').slice(0, NAME_KEY_UNITS);
}

/** An id for `q` matching: ASCII letters lower-cased (as Lua's `string.lower`), nothing else changed. */
export const idSearchKey = (id: string): string => id.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** What the index knows of one scenario. */
export interface FleetState {
  readonly scenarioId: string;
  /** nameKey of the name. */
  readonly nameKey: string;
  /** Null: never evaluated. */
  readonly latest: { readonly c: RollupContribution; readonly evaluatedAt: string } | null;
}

/** The index state of a scenario and its latest results (undefined: never evaluated). */
export function fleetState(s: ScenarioRecord, result: ResultRecord | undefined): FleetState {
  return {
    scenarioId: s.scenario_id,
    nameKey: nameKey(s.name),
    latest: result ? { c: result.contribution, evaluatedAt: result.evaluated_at } : null,
  };
}

/** The members of a scenario's state (10: five sorts in `all` and in its badge's group). */
export function fleetMembers(state: FleetState): string[] {
  const l = state.latest;
  const badge = l ? badgeOf(l.c) : null;
  const keys: Record<(typeof FIELDS)[number], string> = {
    n: state.nameKey,
    s: l ? String(Math.round(l.c.score)).padStart(3, '0') : NONE_KEY,
    b: badge ? BADGE_RANK[badge] : NONE_KEY,
    e: l ? l.evaluatedAt : NONE_KEY,
    v: l ? String(l.c.violations).padStart(6, '0') : NONE_KEY,
  };
  const out: string[] = [];
  for (const group of ['all', badge ?? 'not_evaluated'])
    for (const f of FIELDS) out.push(`${group}\u0000${f}\u0000${keys[f]}\u0000${state.scenarioId}`);
  return out;
}

/** The members in `before` not in `after`, and those in `after` not in `before`. */
export function memberChanges(
  before: readonly string[],
  after: readonly string[],
): { gone: string[]; added: string[] } {
  const a = new Set(after);
  const b = new Set(before);
  return { gone: before.filter((m) => !a.has(m)), added: after.filter((m) => !b.has(m)) };
}

/**
 * The index changes from state `before` to `after` (null: no entries): memberChanges of their
 * fleetMembers, computed by position. Both lists name the same group and field at each position
 * (`all`, then a badge group, which is never `all`; the fields in FIELDS order), so a member can
 * only equal the one at its own position: no sets are built per stored result.
 */
export function fleetChanges(before: FleetState | null, after: FleetState | null): { gone: string[]; added: string[] } {
  const b = before ? fleetMembers(before) : [];
  const a = after ? fleetMembers(after) : [];
  if (b.length === 0 || a.length === 0) return { gone: b, added: a };
  const gone: string[] = [];
  const added: string[] = [];
  for (let i = 0; i < b.length; i++)
    if (b[i] !== a[i]) {
      gone.push(b[i]!);
      added.push(a[i]!);
    }
  return { gone, added };
}

/** The range of one sort in one group: members start with `prefix`, and sort before `end`. */
export function sortRange(group: string, sort: FleetSort): { prefix: string; end: string } {
  const f = SORT_FIELD[sort];
  return { prefix: `${group}\u0000${f}\u0000`, end: `${group}\u0000${f}\u0001` };
}

/** The scenario id of a member (its last part). */
export const memberId = (member: string): string => member.slice(member.lastIndexOf('\u0000') + 1);
/** The name key of a name-sort member. */
export function memberNameKey(member: string): string {
  const parts = member.split('\u0000');
  return parts[2] ?? '';
}

/** Opaque cursor of a member: base64url of `<sort key>\0<id>`. */
export function encodeCursor(member: string): string {
  const parts = member.split('\u0000');
  return Buffer.from(`${parts[2]}\u0000${parts.slice(3).join('\u0000')}`, 'utf8').toString('base64url');
}

/** The member tail (`<sort key>\0<id>`) of a cursor, or null when it is not one. */
export function decodeCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(cursor)) return null;
  const tail = Buffer.from(cursor, 'base64url').toString('utf8');
  return tail.includes('\u0000') ? tail : null;
}

/** Violations by severity of a contribution; an older one without `severities` knows only `critical` (the others null). */
export function severitiesOf(c: RollupContribution): Record<SeverityName, number | null> {
  if (c.severities) return { ...c.severities };
  return { critical: c.critical, high: null, medium: null, low: null, info: null };
}

/** The history entry of one scenario's results. */
export function historyEntry(
  evaluationId: string,
  write: { readonly contribution: RollupContribution; readonly evaluatedAt: string },
): HistoryEntry {
  return {
    evaluation_id: evaluationId,
    evaluated_at: write.evaluatedAt,
    score: write.contribution.score,
    violations: severitiesOf(write.contribution),
  };
}
