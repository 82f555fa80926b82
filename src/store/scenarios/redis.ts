/**
 * @module store/scenarios/redis: ScenariosRepository on Redis (`P{org}:scenarios`: scenario id →
 * record JSON; `P{org}:blueprints:<scenario>`: version → blueprint bytes; store/redis/keys). An import
 * and a deletion are one script each, with the rollup's count (and, on deletion, contribution).
 */
import type { ScenarioRecord } from '../../model/records.js';
import type { ScenarioVersion, ScenariosRepository } from './repository.js';
import type { RedisContext } from '../redis/context.js';
import { byCodePoint } from '../redis/codec.js';
import { luaScript, runScript } from '../redis/script.js';
import { ACCUMULATE_CONTRIBUTIONS_LUA } from '../redis/rollup-hash.js';
import { FLEET_INDEX_LUA } from '../fleet/redis-lua.js';
import { nameKey } from '../fleet/keys.js';

/**
 * KEYS: scenarios, blueprints, rollup, counts, fleet, fleet rows. ARGV: scenario id, name, now ISO,
 * module count, blueprint bytes, org id, name key (store/fleet/keys `nameKey`). The next version is
 * read and written in the script, so concurrent imports get distinct versions; the record is JSON
 * because the commit script reads its version. The fleet row and index follow the name.
 * @returns the new record's JSON.
 */
const SAVE = luaScript(
  'scenario-save',
  `${ACCUMULATE_CONTRIBUTIONS_LUA}${FLEET_INDEX_LUA}
local prev = redis.call('HGET', KEYS[1], ARGV[1])
local version = 1
if prev then version = cjson.decode(prev).version + 1 end
local rec = cjson.encode({org_id = ARGV[6], scenario_id = ARGV[1], name = ARGV[2], version = version,
  imported_at = ARGV[3], module_count = tonumber(ARGV[4])})
if not prev then
  redis.call('HINCRBY', KEYS[3], 'scenarios_total', 1)
  redis.call('HSET', KEYS[3], 'updated_at', ARGV[3])
  redis.call('HINCRBY', KEYS[3], 'rev', 1)
  redis.call('HINCRBY', KEYS[4], 'scenarios', 1)
end
redis.call('HSET', KEYS[1], ARGV[1], rec)
redis.call('HSET', KEYS[2], version, ARGV[5])
local rj = redis.call('HGET', KEYS[6], ARGV[1])
local row = rj and cjson.decode(rj) or {id = ARGV[1]}
row.name, row.nk, row.mc = ARGV[2], ARGV[7], tonumber(ARGV[4])
fleet_reindex(KEYS[5], rj and cjson.decode(rj) or nil, row)
redis.call('HSET', KEYS[6], ARGV[1], cjson.encode(row))
return rec`,
);

/**
 * KEYS: scenarios, blueprints, latest results, rollup, counts, fleet, fleet rows, history. ARGV:
 * scenario id, now ISO. Removes the record, every version, the latest results and their rollup
 * contribution, the fleet row, index members and history.
 * @returns 1, or 0 when the scenario does not exist.
 */
const DELETE = luaScript(
  'scenario-delete',
  `${ACCUMULATE_CONTRIBUTIONS_LUA}${FLEET_INDEX_LUA}
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
local c = redis.call('HGET', KEYS[3], 'c')
local contribution = c and cjson.decode(c)
local rj = redis.call('HGET', KEYS[7], ARGV[1])
if rj then fleet_reindex(KEYS[6], cjson.decode(rj), nil) end
redis.call('HDEL', KEYS[7], ARGV[1])
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2], KEYS[3], KEYS[8])
if contribution then
  local rollup = {}
  add_contribution(rollup, contribution, -1)
  flush_contributions(KEYS[4], rollup)
  redis.call('HINCRBY', KEYS[5], 'results', -1)
end
if redis.call('HINCRBY', KEYS[4], 'scenarios_total', -1) < 0 then redis.call('HSET', KEYS[4], 'scenarios_total', 0) end
redis.call('HSET', KEYS[4], 'updated_at', ARGV[2])
redis.call('HINCRBY', KEYS[4], 'rev', 1)
redis.call('HINCRBY', KEYS[5], 'scenarios', -1)
return 1`,
);

/** Scenarios and blueprint versions in Redis. */
export class RedisScenarios implements ScenariosRepository {
  constructor(private readonly c: RedisContext) {}

  async get(orgId: string, scenarioId: string): Promise<ScenarioRecord | undefined> {
    const json = await this.c.redis.hget(this.c.keys.scenarios(orgId), scenarioId);
    return json === null ? undefined : (JSON.parse(json) as ScenarioRecord);
  }

  async blueprint(orgId: string, scenarioId: string, version: number): Promise<Uint8Array | undefined> {
    return (await this.c.redis.hgetBuffer(this.c.keys.blueprints(orgId, scenarioId), String(version))) ?? undefined;
  }

  async save(v: ScenarioVersion): Promise<ScenarioRecord> {
    const k = this.c.keys;
    const json = await runScript(
      this.c.redis,
      SAVE,
      [
        k.scenarios(v.orgId),
        k.blueprints(v.orgId, v.scenarioId),
        k.rollup(v.orgId),
        k.counts,
        k.fleet(v.orgId),
        k.fleetRows(v.orgId),
      ],
      [v.scenarioId, v.name, v.nowIso, v.moduleCount, Buffer.from(v.blueprintJson, 'utf8'), v.orgId, nameKey(v.name)],
    );
    return JSON.parse(json as string) as ScenarioRecord;
  }

  async list(orgId: string): Promise<ScenarioRecord[]> {
    const all = await this.c.redis.hgetall(this.c.keys.scenarios(orgId));
    return Object.keys(all)
      .sort(byCodePoint)
      .map((id) => JSON.parse(all[id]!) as ScenarioRecord);
  }

  async delete(orgId: string, scenarioId: string, nowIso: string): Promise<boolean> {
    const k = this.c.keys;
    const deleted = await runScript(
      this.c.redis,
      DELETE,
      [
        k.scenarios(orgId),
        k.blueprints(orgId, scenarioId),
        k.latest(orgId, scenarioId),
        k.rollup(orgId),
        k.counts,
        k.fleet(orgId),
        k.fleetRows(orgId),
        k.history(orgId, scenarioId),
      ],
      [scenarioId, nowIso],
    );
    return deleted === 1;
  }
}
