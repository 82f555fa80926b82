/**
 * @module store/redis/migrate: one-time upgrades of data written by earlier releases in Redis, run
 * by `openRedisStore` (as store/lmdb/migrate runs LMDB's when the environment opens). Each runs
 * once per key prefix: its name goes into `Pmigrations` when it finished. Each is idempotent and
 * safe beside live traffic, so nodes that start together may all run it (no lock to lose), and a
 * node that dies halfway leaves it to the next start.
 */
import type { ScenarioRecord } from '../../model/records.js';
import type { RedisContext } from './context.js';
import type { RedisResults } from '../results/redis.js';
import { byCodePoint } from './codec.js';
import { luaScript, runScript } from './script.js';
import { FLEET_BADGE_LUA, FLEET_INDEX_LUA } from '../fleet/redis-lua.js';
import { nameKey } from '../fleet/keys.js';

/** Scenarios indexed per round trip of the fleet migration (auto-pipelined scripts). */
const SCENARIOS_PER_ROUND = 500;

/**
 * KEYS: fleet, fleet rows, scenarios, the scenario's latest results. ARGV: scenario id, name key
 * (store/fleet/keys `nameKey` of the record's name). Writes the scenario's fleet row and index
 * members from its record and latest contribution, unless it has a row (the import and commit
 * scripts keep those) or no longer exists. @returns 1 when it wrote the row, else 0.
 */
const INDEX_SCENARIO = luaScript(
  'fleet-index-scenario',
  `${FLEET_BADGE_LUA}${FLEET_INDEX_LUA}
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
local sj = redis.call('HGET', KEYS[3], ARGV[1])
if not sj then return 0 end
local sc = cjson.decode(sj)
local row = {id = ARGV[1], name = sc.name, nk = ARGV[2], mc = sc.module_count}
local c = redis.call('HGET', KEYS[4], 'c')
if c then fleet_apply(row, cjson.decode(c), redis.call('HGET', KEYS[4], 'at')) end
fleet_reindex(KEYS[1], nil, row)
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(row))
return 1`,
);

type Migration = (c: RedisContext, results: RedisResults) => Promise<void>;

/** Migrations by name, in the order they run; each runs once per prefix. */
const MIGRATIONS: readonly (readonly [string, Migration])[] = [['2026-11-28-fleet-rows', indexFleet]];

/** Runs the migrations this prefix has not run yet. @throws the connection's errors (the store does not open). */
export async function migrateRedis(c: RedisContext, results: RedisResults): Promise<void> {
  const done = await c.redis.hgetall(c.keys.migrations);
  for (const [name, run] of MIGRATIONS) {
    if (done[name] !== undefined) continue;
    await run(c, results);
    await c.redis.hset(c.keys.migrations, name, c.nowIso());
  }
}

/**
 * Before issue 18 (the fleet read model) scenarios had no fleet rows and sort-index members, and
 * rollups no badge counts; the scripts since then write a row at import and at a scenario's next
 * result, so until then the console's scenario list lacked it and the overview's badge counts
 * stayed wrong (issue 31, item 8). Every scenario without a row gets one (INDEX_SCENARIO), then
 * every organization's rollup is rebuilt as `admin rollup rebuild` does (a contribution of that time
 * without a badge counts as `badgeOf` derives it: `clean`, `critical` or `unknown`), keeping its
 * `updated_at`. Histories and the evaluations per day start empty (not derivable from what was
 * kept), as on LMDB. Reads every scenario once.
 */
async function indexFleet(c: RedisContext, results: RedisResults): Promise<void> {
  const k = c.keys;
  for (const orgId of (await c.redis.hkeys(k.orgs)).sort(byCodePoint)) {
    const scenarios = Object.entries(await c.redis.hgetall(k.scenarios(orgId)));
    for (let i = 0; i < scenarios.length; i += SCENARIOS_PER_ROUND)
      await Promise.all(
        scenarios
          .slice(i, i + SCENARIOS_PER_ROUND)
          .map(([id, json]) =>
            runScript(
              c.redis,
              INDEX_SCENARIO,
              [k.fleet(orgId), k.fleetRows(orgId), k.scenarios(orgId), k.latest(orgId, id)],
              [id, nameKey((JSON.parse(json) as ScenarioRecord).name)],
            ),
          ),
      );
    const updatedAt = await c.redis.hget(k.rollup(orgId), 'updated_at');
    if (updatedAt !== null || scenarios.length > 0) await results.rebuildRollup(orgId, updatedAt ?? c.nowIso());
  }
}
