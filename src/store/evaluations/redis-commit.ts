/**
 * @module store/evaluations/redis-commit: the script of `EvaluationsRepository.commit` on Redis: the
 * record and its view, the open index, the scenarios' results (each evaluation's own, each scenario's
 * latest with its rollup contribution diff) and the outbox deliveries, in one atomic step.
 *
 * The deliveries are made by a JavaScript callback from the organization's endpoints, so they are
 * made before the script runs, from endpoints read with the organization's `webhooks-rev`; the script
 * writes only if that revision is unchanged (an optimistic check, like WATCH, but on the shared
 * connection), else the caller reads and calls back again.
 */
import { luaScript, type ScriptArg } from '../redis/script.js';
import { ACCUMULATE_CONTRIBUTIONS_LUA } from '../redis/rollup-hash.js';
import { FLEET_INDEX_LUA } from '../fleet/redis-lua.js';
import { HISTORY_LIMIT } from '../fleet/repository.js';
import { ENQUEUE_DELIVERIES_LUA } from '../webhooks/redis-outbox.js';

/** Fixed KEYS of the commit script, before the per-result and per-delivery keys. */
export const COMMIT_FIXED_KEYS = 12;
/** Fixed ARGV of the commit script, before the per-result and per-delivery arguments. */
export const COMMIT_FIXED_ARGS = 13;
/** KEYS per result: the scenario's latest results, its history. */
export const KEYS_PER_RESULT = 2;
/**
 * ARGV per result: index, scenario id, version evaluated, evaluated at, results bytes, remediation
 * bytes, contribution JSON, history entry JSON, evaluated at in ms.
 */
export const ARGS_PER_RESULT = 9;

/**
 * KEYS: 1 evaluation, 2 open, 3 rollup, 4 counts, 5 webhooks-rev, 6 scenarios, 7 evaluation results,
 * 8 outbox-endpoints, 9 completed (retention index), 10 fleet, 11 fleet rows, 12 days, then per
 * result its latest-results and history keys, then the deliveries' keys
 * (store/webhooks/redis-outbox `deliveryParams`).
 * ARGV: 1 id, 2 record, 3 view, 4 terminal ('1'/'0'), 5 open-index value, 6 expected webhooks-rev
 * ('' = no check), 7 now ISO, 8 result count, 9 delivery count, 10 expected record bytes ('' = no
 * check: `update`'s compare-and-set), 11 retirement time in ms for the completion index ('' = none:
 * open or ephemeral), 12 completion day (`YYYY-MM-DD`, '' = not a completion: the days counters
 * count it only while the evaluation is still in the open index), 13 its scenarios, then the
 * per-result and per-delivery args.
 * A result becomes the scenario's latest if the scenario exists at a version ≥ the one evaluated and
 * no later evaluation's results landed first (as in LMDB); the scenario's history gets every result
 * of an existing scenario (trimmed to the newest HISTORY_LIMIT), the fleet row and index follow the latest.
 * @returns 'ok', 'deleted' (the evaluation was deleted: nothing written) or 'retry' (endpoints or
 *   the expected record changed: nothing written).
 */
export const COMMIT = luaScript(
  'evaluation-commit',
  `${ACCUMULATE_CONTRIBUTIONS_LUA}${FLEET_INDEX_LUA}${ENQUEUE_DELIVERIES_LUA}
if redis.call('EXISTS', KEYS[1]) == 0 then return 'deleted' end
if ARGV[6] ~= '' and (redis.call('GET', KEYS[5]) or '0') ~= ARGV[6] then return 'retry' end
if ARGV[10] ~= '' and redis.call('HGET', KEYS[1], 'rec') ~= ARGV[10] then return 'retry' end
local nr, nd = tonumber(ARGV[8]), tonumber(ARGV[9])
local landing, seen, histories = {}, {}, {}
local completing = ARGV[12] ~= '' and redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1
for i = 0, nr - 1 do
  local a = ${COMMIT_FIXED_ARGS} + i * ${ARGS_PER_RESULT}
  local latest = KEYS[${COMMIT_FIXED_KEYS} + 1 + i * ${KEYS_PER_RESULT}]
  local scenario = redis.call('HGET', KEYS[6], ARGV[a + 2])
  if scenario and cjson.decode(scenario).version >= tonumber(ARGV[a + 3]) then
    histories[#histories + 1] = {key = KEYS[${COMMIT_FIXED_KEYS} + 2 + i * ${KEYS_PER_RESULT}], a = a}
    -- a scenario evaluated twice in one batch: the second result sees the first one's decision
    local cur = seen[latest]
    if not cur then
      local c = redis.call('HGET', latest, 'c')
      cur = {at = redis.call('HGET', latest, 'at'), c = c and cjson.decode(c)}
    end
    if not cur.at or cur.at <= ARGV[a + 4] then
      local next = cjson.decode(ARGV[a + 7])
      landing[#landing + 1] = {a = a, key = latest, prev = cur.c, next = next, sid = ARGV[a + 2], scenario = scenario}
      cur = {at = ARGV[a + 4], c = next}
    end
    seen[latest] = cur
  end
end
for i = 0, nr - 1 do
  local a = ${COMMIT_FIXED_ARGS} + i * ${ARGS_PER_RESULT}
  redis.call('HSET', KEYS[7], ARGV[a + 1], ARGV[a + 5])
end
local rollup, fresh = {}, 0
for _, l in ipairs(landing) do
  if l.prev then add_contribution(rollup, l.prev, -1) else fresh = fresh + 1 end
  add_contribution(rollup, l.next, 1)
  local a = l.a
  redis.call('HSET', l.key, 'json', ARGV[a + 5], 'rem', ARGV[a + 6], 'at', ARGV[a + 4], 'ev', ARGV[1],
    'v', ARGV[a + 3], 'c', ARGV[a + 7])
  -- A scenario imported before the fleet rows existed gets its row here (name key lower-cased by Lua: ASCII only).
  local rj = redis.call('HGET', KEYS[11], l.sid)
  local row = rj and cjson.decode(rj)
  if not row then
    local sc = cjson.decode(l.scenario)
    row = {id = l.sid, name = sc.name, nk = string.sub(string.lower(sc.name), 1, 200), mc = sc.module_count}
  end
  fleet_apply(row, l.next, ARGV[a + 4])
  fleet_reindex(KEYS[10], rj and cjson.decode(rj) or nil, row)
  redis.call('HSET', KEYS[11], l.sid, cjson.encode(row))
end
for _, h in ipairs(histories) do
  redis.call('ZADD', h.key, ARGV[h.a + 9], ARGV[h.a + 8])
  redis.call('ZREMRANGEBYRANK', h.key, 0, -${HISTORY_LIMIT + 1})
end
if completing then
  redis.call('HINCRBY', KEYS[12], ARGV[12] .. ':e', 1)
  redis.call('HINCRBY', KEYS[12], ARGV[12] .. ':s', tonumber(ARGV[13]))
end
if #landing > 0 then
  flush_contributions(KEYS[3], rollup)
  if fresh > 0 then redis.call('HINCRBY', KEYS[4], 'results', fresh) end
  redis.call('HSET', KEYS[3], 'updated_at', ARGV[7])
  redis.call('HINCRBY', KEYS[3], 'rev', 1)
end
redis.call('HSET', KEYS[1], 'rec', ARGV[2], 'view', ARGV[3])
if ARGV[4] == '1' then redis.call('HDEL', KEYS[2], ARGV[1]) else redis.call('HSET', KEYS[2], ARGV[1], ARGV[5]) end
if ARGV[11] ~= '' then redis.call('ZADD', KEYS[9], ARGV[11], ARGV[1]) end
enqueue_deliveries(KEYS[4], KEYS[8], ${COMMIT_FIXED_KEYS} + nr * ${KEYS_PER_RESULT}, ${COMMIT_FIXED_ARGS} + nr * ${ARGS_PER_RESULT}, nd)
return 'ok'`,
);

/** Arguments of one result write. */
export function resultArgs(
  index: number,
  scenarioId: string,
  version: number,
  evaluatedAt: string,
  results: Uint8Array,
  remediation: Uint8Array,
  contributionJson: string,
  historyJson: string,
): ScriptArg[] {
  const ms = Date.parse(evaluatedAt);
  return [String(index), scenarioId, version, evaluatedAt, results, remediation, contributionJson, historyJson, ms];
}
