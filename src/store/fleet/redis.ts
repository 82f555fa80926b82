/**
 * @module store/fleet/redis: FleetRepository on Redis (`P{org}:fleet`, `P{org}:fleet-rows`,
 * `P{org}:history:<scenario>`, `P{org}:days`; store/redis/keys). The scenario and commit scripts
 * write them (store/fleet/redis-lua); these reads are a range and a count (one round trip) and one
 * HMGET of the page's rows, or one read-only script for a `q` search.
 */
import type { ScenarioBadge, SeverityName } from '../../model/records.js';
import type { DayCount, FleetPage, FleetQuery, FleetRepository, FleetRow, HistoryEntry } from './repository.js';
import type { RedisContext } from '../redis/context.js';
import { HISTORY_LIMIT, SEARCH_SCAN_LIMIT } from './repository.js';
import { encodeCursor, memberId, sortRange } from './keys.js';
import { luaScript, runScript } from '../redis/script.js';
import { FLEET_SEARCH_SOURCE } from './redis-lua.js';

const SEARCH = luaScript('fleet-search', FLEET_SEARCH_SOURCE);

/** A row as the scripts store it (store/fleet/redis-lua). */
interface StoredRow {
  readonly id: string;
  readonly name: string;
  readonly mc: number;
  readonly score?: number;
  readonly badge?: ScenarioBadge;
  readonly at?: string;
  readonly crit?: number;
  readonly sev?: Record<SeverityName, number>;
}

function rowOf(json: string): FleetRow {
  const r = JSON.parse(json) as StoredRow;
  const evaluated = r.badge !== undefined;
  return {
    scenario_id: r.id,
    name: r.name,
    score: evaluated ? (r.score ?? null) : null,
    badge: r.badge ?? null,
    evaluated_at: evaluated ? (r.at ?? null) : null,
    violations: !evaluated
      ? { critical: 0, high: 0, medium: 0, low: 0, info: 0 }
      : (r.sev ?? { critical: r.crit ?? null, high: null, medium: null, low: null, info: null }),
    module_count: r.mc,
  };
}

/** The fleet read model in Redis. */
export class RedisFleet implements FleetRepository {
  constructor(private readonly c: RedisContext) {}

  async page(orgId: string, query: FleetQuery): Promise<FleetPage> {
    const zset = this.c.keys.fleet(orgId);
    const group = query.badge ?? 'all';
    const names = sortRange(group, 'name');
    const { prefix, end } = sortRange(group, query.sort);
    const after = query.after === undefined ? '' : `${prefix}${query.after}`;
    const desc = query.order === 'desc';
    const q = query.q?.toLowerCase() ?? '';
    let members: string[];
    let total: number;
    let totalExact = true;
    let more: boolean;
    let last: string;
    if (q === '') {
      const tx = this.c.redis.multi().zlexcount(zset, `[${names.prefix}`, `(${names.end}`);
      if (desc) tx.zrevrangebylex(zset, after ? `(${after}` : `(${end}`, `[${prefix}`, 'LIMIT', 0, query.limit + 1);
      else tx.zrangebylex(zset, after ? `(${after}` : `[${prefix}`, `(${end}`, 'LIMIT', 0, query.limit + 1);
      const replies = await tx.exec();
      if (!replies) throw new Error('fleet page: transaction aborted');
      for (const [error] of replies) if (error) throw error;
      total = replies[0]![1] as number;
      const found = replies[1]![1] as string[];
      more = found.length > query.limit;
      members = found.slice(0, query.limit);
      last = members.at(-1) ?? '';
    } else {
      const reply = (await runScript(
        this.c.redis,
        SEARCH,
        [zset],
        [names.prefix, names.end, prefix, end, after, desc ? '1' : '0', q, query.limit, SEARCH_SCAN_LIMIT],
      )) as (string | number)[];
      total = Number(reply[0]);
      totalExact = Number(reply[1]) === 1;
      more = Number(reply[2]) === 1;
      last = String(reply[3]);
      members = reply.slice(4).map(String);
    }
    const ids = members.map(memberId);
    const rows =
      ids.length === 0
        ? []
        : (await this.c.redis.hmget(this.c.keys.fleetRows(orgId), ...ids)).filter((j) => j !== null);
    return {
      rows: rows.map((j) => rowOf(j)),
      total,
      totalExact,
      nextCursor: more && last !== '' ? encodeCursor(last) : null,
    };
  }

  async history(orgId: string, scenarioId: string): Promise<HistoryEntry[]> {
    const members = await this.c.redis.zrevrange(this.c.keys.history(orgId, scenarioId), 0, HISTORY_LIMIT - 1);
    return members.map((m) => JSON.parse(m) as HistoryEntry);
  }

  async evaluationDays(orgId: string, days: readonly string[]): Promise<DayCount[]> {
    if (days.length === 0) return [];
    const values = await this.c.redis.hmget(this.c.keys.days(orgId), ...days.flatMap((d) => [`${d}:e`, `${d}:s`]));
    return days.map((day, i) => ({
      day,
      evaluations: Number(values[2 * i] ?? 0),
      scenarios: Number(values[2 * i + 1] ?? 0),
    }));
  }
}
