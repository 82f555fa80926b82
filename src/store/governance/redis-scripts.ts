/**
 * @module store/governance/redis-scripts: the Lua scripts of GovernanceRepository on Redis, one per
 * atomic write (PITFALLS 34). Records are msgpack built by the caller from what it read; each script
 * writes only if what the caller read is unchanged (a compare-and-set), so a number (version, code,
 * revision) is handed out once however many processes and nodes write.
 */
import { luaScript } from '../redis/script.js';

/**
 * KEYS: gov, gov-settings. ARGV: expected current version, new version, record.
 * @returns -1 when stored, else the current version (nothing written).
 */
export const PUT_SETTINGS = luaScript(
  'governance-put-settings',
  `local cur = tonumber(redis.call('HGET', KEYS[1], 'settings') or '0')
if cur ~= tonumber(ARGV[1]) then return cur end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[1], 'settings', ARGV[2])
return -1`,
);

/**
 * KEYS: gov, rules, counts. ARGV: rules-seq read, rules-rev read, new n, new revision, record, max active.
 * @returns 'ok', 'limit', or 'retry' when another write took the number or revision (nothing written).
 */
export const CREATE_RULE = luaScript(
  'governance-create-rule',
  `local h = redis.call('HMGET', KEYS[1], 'rules-seq', 'rules-rev', 'rules-active')
if tonumber(h[3] or '0') >= tonumber(ARGV[6]) then return 'limit' end
if (h[1] or '0') ~= ARGV[1] or (h[2] or '0') ~= ARGV[2] then return 'retry' end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[5])
redis.call('HSET', KEYS[1], 'rules-seq', ARGV[3], 'rules-rev', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'rules-active', 1)
redis.call('HINCRBY', KEYS[3], 'custom_rules', 1)
return 'ok'`,
);

/**
 * KEYS: gov, rules. ARGV: n, record bytes read, deleted record, rules-rev read, new revision.
 * @returns 'ok', or 'retry' when the rule or the revision changed meanwhile (nothing written).
 */
export const DELETE_RULE = luaScript(
  'governance-delete-rule',
  `if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 'retry' end
if (redis.call('HGET', KEYS[1], 'rules-rev') or '0') ~= ARGV[4] then return 'retry' end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[1], 'rules-rev', ARGV[5])
redis.call('HINCRBY', KEYS[1], 'rules-active', -1)
return 'ok'`,
);

/**
 * KEYS: gov, waivers, waiver-order, scenario-waivers, waivers-active, waiver-due:notice,
 * waiver-due:expiry, counts. ARGV: waiver id, record, now ms, max active, expiry ms, notice ms, due
 * member (`<org>\0<id>`). Active = unrevoked with expiry after now; expired entries are pruned here.
 * @returns 1, or 0 at the limit (nothing written).
 */
export const CREATE_WAIVER = luaScript(
  'governance-create-waiver',
  `if redis.call('ZCOUNT', KEYS[5], '(' .. ARGV[3], '+inf') >= tonumber(ARGV[4]) then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', ARGV[3])
local seq = redis.call('HINCRBY', KEYS[1], 'waivers-seq', 1)
if redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) == 1 then redis.call('HINCRBY', KEYS[8], 'waivers', 1) end
redis.call('ZADD', KEYS[3], seq, ARGV[1])
redis.call('ZADD', KEYS[4], seq, ARGV[1])
redis.call('ZADD', KEYS[5], ARGV[5], ARGV[1])
redis.call('ZADD', KEYS[6], ARGV[6], ARGV[7])
redis.call('ZADD', KEYS[7], ARGV[5], ARGV[7])
return 1`,
);

/**
 * KEYS: index (waiver-order or scenario-waivers), waiver-order, waivers. ARGV: cursor id ('' = none), limit.
 * @returns the records of up to `limit` waivers created before the cursor, newest first; none for an unknown cursor.
 */
export const LIST_WAIVERS = luaScript(
  'governance-list-waivers',
  `local max = '+inf'
if ARGV[1] ~= '' then
  local s = redis.call('ZSCORE', KEYS[2], ARGV[1])
  if not s then return {} end
  max = '(' .. s
end
local ids = redis.call('ZRANGE', KEYS[1], max, '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, tonumber(ARGV[2]))
if #ids == 0 then return {} end
return redis.call('HMGET', KEYS[3], unpack(ids))`,
);

/** KEYS: scenario-waivers, waivers. @returns the records of the scenario's waivers, oldest first. */
export const SCENARIO_WAIVERS = luaScript(
  'governance-scenario-waivers',
  `local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
if #ids == 0 then return {} end
return redis.call('HMGET', KEYS[2], unpack(ids))`,
);

/**
 * KEYS: waivers, waivers-active, waiver-due:notice, waiver-due:expiry. ARGV: waiver id, bytes read,
 * revoked record, due member. @returns 'ok', or 'retry' when the waiver changed meanwhile.
 */
export const REVOKE_WAIVER = luaScript(
  'governance-revoke-waiver',
  `if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 'retry' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[4])
redis.call('ZREM', KEYS[4], ARGV[4])
return 'ok'`,
);

/**
 * KEYS: waiver-due:<kind>, waivers. ARGV: due member, waiver id, bytes read ('' = drop the entry
 * only: a revoked or unknown waiver), record with the audit entry appended.
 * @returns 'ok' (claimed), 'gone' (the entry was taken already, or dropped), or 'retry' (the waiver changed meanwhile).
 */
export const CLAIM_DUE = luaScript(
  'governance-claim-due',
  `if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 'gone' end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 'gone'
end
if redis.call('HGET', KEYS[2], ARGV[2]) ~= ARGV[3] then return 'retry' end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[4])
return 'ok'`,
);
