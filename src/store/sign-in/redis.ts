/**
 * @module store/sign-in/redis: SignInThrottleRepository on Redis (`Psign-in:<key>` hashes;
 * store/redis/keys). One script per call over all its keys, so that an attempt is reserved against
 * its account and its address together or not at all (the keys lie in different cluster slots, like
 * the other global indexes of store/redis/keys); a key expires once its window and its lock are over.
 */
import { randomBytes } from 'node:crypto';
import type { ReservedKey, SignInThrottleRepository, ThrottleKey, ThrottleReservation } from './repository.js';
import type { RedisContext } from '../redis/context.js';
import { luaScript, runScript } from '../redis/script.js';

/**
 * KEYS: the keys' hashes (`c` failures, `f` forgiven, `p` unsettled, `s` window start ms, `l` locked
 * until ms, `w` window id; absent fields 0). ARGV: now ms, window ms, lock ms, a new window id, then
 * each key's limit. Returns `{ 0, locked until }` when a key is locked (nothing written), else
 * `{ 1, window id, seen, window id, seen, … }` in the order of KEYS.
 */
const RESERVE = luaScript(
  'sign-in-reserve',
  `local now, window, lock, id = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local recs, locked = {}, 0
for i, key in ipairs(KEYS) do
  local h = redis.call('HMGET', key, 'c', 'f', 'p', 's', 'l', 'w')
  local l = tonumber(h[5]) or 0
  if l > now and l > locked then locked = l end
  recs[i] = h
end
if locked > 0 then return { 0, locked } end
local out = { 1 }
for i, key in ipairs(KEYS) do
  local h = recs[i]
  local c, f, p, s, w = tonumber(h[1]) or 0, tonumber(h[2]) or 0, tonumber(h[3]) or 0, tonumber(h[4]), h[6]
  if s == nil or now - s >= window then c, f, p, s, w = 0, 0, 0, now, id end
  if not w then w = id end
  p = p + 1
  local l = 0
  if c - f + p >= tonumber(ARGV[4 + i]) then l = now + lock end
  redis.call('HSET', key, 'c', c, 'f', f, 'p', p, 's', s, 'l', l, 'w', w)
  redis.call('PEXPIRE', key, math.max(math.max(s + window, l) - now, 1))
  out[#out + 1] = w
  out[#out + 1] = c
end
return out`,
);

/**
 * KEYS: the keys' hashes. ARGV: `failure` or `success`, then per key its window id, seen, limit and
 * forgive (`1`/`0`). Keys whose window id differs (a new window, or expired) are left alone.
 */
const SETTLE = luaScript(
  'sign-in-settle',
  `local failed = ARGV[1] == 'failure'
for i, key in ipairs(KEYS) do
  local a = 2 + (i - 1) * 4
  local h = redis.call('HMGET', key, 'c', 'f', 'p', 'w')
  if h[4] == ARGV[a] then
    local c, f, p = tonumber(h[1]) or 0, tonumber(h[2]) or 0, math.max((tonumber(h[3]) or 0) - 1, 0)
    local seen, limit = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
    if failed then c = c + 1 elseif ARGV[a + 3] == '1' then f = math.max(f, math.min(seen, c)) end
    if c - f + p == 0 then
      redis.call('DEL', key)
    elseif c - f + p < limit then
      redis.call('HSET', key, 'c', c, 'f', f, 'p', p, 'l', 0)
    else
      redis.call('HSET', key, 'c', c, 'f', f, 'p', p)
    end
  end
end
return 1`,
);

/** Sign-in attempt counters in Redis. */
export class RedisSignInThrottle implements SignInThrottleRepository {
  constructor(private readonly c: RedisContext) {}

  async reserve(
    keys: readonly ThrottleKey[],
    nowMs: number,
    windowMs: number,
    lockMs: number,
  ): Promise<ThrottleReservation> {
    const reply = (await runScript(
      this.c.redis,
      RESERVE,
      keys.map(({ key }) => this.c.keys.signIn(key)),
      [nowMs, windowMs, lockMs, randomBytes(9).toString('base64url'), ...keys.map(({ limit }) => limit)],
    )) as [number, ...(string | number)[]];
    if (reply[0] === 0) return { admitted: false, lockedUntil: Number(reply[1]) };
    return {
      admitted: true,
      keys: keys.map((k, i) => ({ ...k, window: String(reply[1 + 2 * i]), seen: Number(reply[2 + 2 * i]) })),
    };
  }

  async settle(keys: readonly ReservedKey[], outcome: 'failure' | 'success'): Promise<void> {
    await runScript(
      this.c.redis,
      SETTLE,
      keys.map(({ key }) => this.c.keys.signIn(key)),
      [outcome, ...keys.flatMap((k) => [k.window, k.seen, k.limit, k.forgive ? 1 : 0])],
    );
  }

  async lockedUntil(keys: readonly string[], nowMs: number): Promise<number | null> {
    const locks = await Promise.all(keys.map((key) => this.c.redis.hget(this.c.keys.signIn(key), 'l')));
    const until = Math.max(0, ...locks.map((l) => Number(l ?? 0)));
    return until > nowMs ? until : null;
  }
}
