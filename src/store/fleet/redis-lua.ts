/**
 * @module store/fleet/redis-lua: the Lua halves of store/fleet/keys, prepended to the scripts that
 * import, delete and evaluate scenarios (one atomic step each): `fleet_badge(c)` (keys `badgeOf`)
 * and `fleet_reindex(zset, before, after)`, which replaces a scenario's members of `P{org}:fleet`
 * (keys `fleetMembers`, byte for byte) given its rows before and after (null: none). A row, the
 * value of `P{org}:fleet-rows` (scenario id → JSON), is `{ id, name, nk, mc, score?, badge?, at?,
 * vt?, sev?, crit? }`: `nk` the name key (computed in TypeScript at import), `mc` the module count,
 * and from the latest results the score, badge, `evaluated_at`, counted violations, violations by
 * severity and critical ones (absent when never evaluated).
 */

/** Lua: `fleet_badge(c)`, a contribution's worst badge (as `badgeOf`). */
export const FLEET_BADGE_LUA = `local function fleet_badge(c)
  if type(c.badge) == 'string' then return c.badge end
  if c.violations == 0 then return 'clean' end
  if c.critical > 0 then return 'critical' end
  return 'unknown'
end
`;

/** Lua: `fleet_members(row)`, `fleet_reindex(zset, before, after)` and `fleet_apply(row, c, at)`. Needs FLEET_BADGE_LUA. */
export const FLEET_INDEX_LUA = `local FLEET_Z = string.char(0)
local FLEET_RANK = {clean = '0', unknown = '1', info = '2', low = '3', medium = '4', high = '5', critical = '6'}
local function fleet_members(row)
  local b = row.badge
  local keys = {n = row.nk, s = '~', b = '~', e = '~', v = '~'}
  if b then
    keys.s = string.format('%03d', math.floor(row.score + 0.5))
    keys.b = FLEET_RANK[b]
    keys.e = row.at
    keys.v = string.format('%06d', row.vt)
  end
  local out = {}
  for _, g in ipairs({'all', b or 'not_evaluated'}) do
    for _, f in ipairs({'n', 's', 'b', 'e', 'v'}) do
      out[#out + 1] = g .. FLEET_Z .. f .. FLEET_Z .. keys[f] .. FLEET_Z .. row.id
    end
  end
  return out
end
local function fleet_reindex(zset, before, after)
  local old = before and fleet_members(before) or {}
  local new = after and fleet_members(after) or {}
  local keep, had = {}, {}
  for _, m in ipairs(new) do keep[m] = true end
  for _, m in ipairs(old) do
    had[m] = true
    if not keep[m] then redis.call('ZREM', zset, m) end
  end
  for _, m in ipairs(new) do
    if not had[m] then redis.call('ZADD', zset, 0, m) end
  end
end
local function fleet_apply(row, c, at)
  row.score = c.score
  row.badge = fleet_badge(c)
  row.at = at
  row.vt = c.violations
  row.crit = c.critical
  if type(c.severities) == 'table' then row.sev = c.severities else row.sev = nil end
end
`;

/**
 * KEYS: fleet zset. ARGV: 1 name-range prefix, 2 its end, 3 sort-range prefix, 4 its end, 5 the
 * member to start after ('' = from the start), 6 '1' descending, 7 q (lower-cased), 8 limit, 9 scan
 * bound. Read-only: the matches of q in the name range (name key or ASCII-lower-cased id contains
 * q), then the page of matches in the sort range. @returns `{ total, exact (1/0), more (1/0), last
 * member read, members of the page... }`.
 */
export const FLEET_SEARCH_SOURCE = `local Z = 0
local function last_zero(s)
  for i = #s, 1, -1 do if string.byte(s, i) == Z then return i end end
  return 0
end
local function first_zero(s, from)
  for i = from, #s do if string.byte(s, i) == Z then return i end end
  return #s + 1
end
local CHUNK = 1000
local q = ARGV[7]
local budget = tonumber(ARGV[9])
local matches, total, exact = {}, 0, 1
local from = '[' .. ARGV[1]
while true do
  local page = redis.call('ZRANGEBYLEX', KEYS[1], from, '(' .. ARGV[2], 'LIMIT', 0, CHUNK)
  for _, m in ipairs(page) do
    budget = budget - 1
    if budget < 0 then exact = 0 break end
    local z = first_zero(m, #ARGV[1] + 1)
    local nk, id = string.sub(m, #ARGV[1] + 1, z - 1), string.sub(m, z + 1)
    if string.find(nk, q, 1, true) or string.find(string.lower(id), q, 1, true) then
      matches[id] = true
      total = total + 1
    end
  end
  if exact == 0 or #page < CHUNK then break end
  from = '(' .. page[#page]
end
budget = tonumber(ARGV[9])
local desc = ARGV[6] == '1'
local limit = tonumber(ARGV[8])
local lo, hi = '[' .. ARGV[3], '(' .. ARGV[4]
if ARGV[5] ~= '' then
  if desc then hi = '(' .. ARGV[5] else lo = '(' .. ARGV[5] end
end
local out, last, more, done = {}, '', 0, false
while not done do
  local page
  if desc then page = redis.call('ZREVRANGEBYLEX', KEYS[1], hi, '[' .. ARGV[3], 'LIMIT', 0, CHUNK)
  else page = redis.call('ZRANGEBYLEX', KEYS[1], lo, '(' .. ARGV[4], 'LIMIT', 0, CHUNK) end
  for _, m in ipairs(page) do
    budget = budget - 1
    if budget < 0 then more = 1 done = true break end
    if matches[string.sub(m, last_zero(m) + 1)] then
      if #out == limit then more = 1 done = true break end
      out[#out + 1] = m
    end
    last = m
  end
  if done or #page < CHUNK then break end
  if desc then hi = '(' .. page[#page] else lo = '(' .. page[#page] end
end
local reply = {total, exact, more, last}
for _, m in ipairs(out) do reply[#reply + 1] = m end
return reply`;
