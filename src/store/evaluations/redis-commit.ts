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
import { ENQUEUE_DELIVERIES_LUA } from '../webhooks/redis-outbox.js';

/** Fixed KEYS of the commit script, before the per-result and per-delivery keys. */
export const COMMIT_FIXED_KEYS = 9;
/** Fixed ARGV of the commit script, before the per-result and per-delivery arguments. */
export const COMMIT_FIXED_ARGS = 11;
/** ARGV per result: index, scenario id, version evaluated, evaluated at, results bytes, remediation bytes, contribution JSON. */
export const ARGS_PER_RESULT = 7;

/**
 * KEYS: 1 evaluation, 2 open, 3 rollup, 4 counts, 5 webhooks-rev, 6 scenarios, 7 evaluation results,
 * 8 outbox-endpoints, 9 completed (retention index), then one latest-results key per result, then
 * the deliveries' keys (store/webhooks/redis-outbox `deliveryParams`).
 * ARGV: 1 id, 2 record, 3 view, 4 terminal ('1'/'0'), 5 open-index value, 6 expected webhooks-rev
 * ('' = no check), 7 now ISO, 8 result count, 9 delivery count, 10 expected record bytes ('' = no
 * check: `update`'s compare-and-set), 11 retirement time in ms for the completion index ('' = none:
 * open or ephemeral), then the per-result and per-delivery args.
 * A result becomes the scenario's latest if the scenario exists at a version ≥ the one evaluated and
 * no later evaluation's results landed first (as in LMDB).
 * @returns 'ok', 'deleted' (the evaluation was deleted: nothing written) or 'retry' (endpoints or
 *   the expected record changed: nothing written).
 */
export const COMMIT = luaScript(
  'evaluation-commit',
  `${ACCUMULATE_CONTRIBUTIONS_LUA}${ENQUEUE_DELIVERIES_LUA}
if redis.call('EXISTS', KEYS[1]) == 0 then return 'deleted' end
if ARGV[6] ~= '' and (redis.call('GET', KEYS[5]) or '0') ~= ARGV[6] then return 'retry' end
if ARGV[10] ~= '' and redis.call('HGET', KEYS[1], 'rec') ~= ARGV[10] then return 'retry' end
local nr, nd = tonumber(ARGV[8]), tonumber(ARGV[9])
local landing, seen = {}, {}
for i = 0, nr - 1 do
  local a = ${COMMIT_FIXED_ARGS} + i * ${ARGS_PER_RESULT}
  local latest = KEYS[${COMMIT_FIXED_KEYS} + 1 + i]
  local scenario = redis.call('HGET', KEYS[6], ARGV[a + 2])
  if scenario and cjson.decode(scenario).version >= tonumber(ARGV[a + 3]) then
    -- a scenario evaluated twice in one batch: the second result sees the first one's decision
    local cur = seen[latest]
    if not cur then
      local c = redis.call('HGET', latest, 'c')
      cur = {at = redis.call('HGET', latest, 'at'), c = c and cjson.decode(c)}
    end
    if not cur.at or cur.at <= ARGV[a + 4] then
      local next = cjson.decode(ARGV[a + 7])
      landing[#landing + 1] = {a = a, key = latest, prev = cur.c, next = next}
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
enqueue_deliveries(KEYS[4], KEYS[8], ${COMMIT_FIXED_KEYS} + nr, ${COMMIT_FIXED_ARGS} + nr * ${ARGS_PER_RESULT}, nd)
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
): ScriptArg[] {
  return [String(index), scenarioId, version, evaluatedAt, results, remediation, contributionJson];
}
