/**
 * @module store/rate-limits/redis: RateLeases on Redis. Per key and window kind one hash,
 * `Prate:<key>:m` / `Prate:<key>:h`, window id → requests leased; `take` and `release` are Lua
 * scripts, so a grant's read and write are one step for every process and node (never more than
 * `limit` in total). The window's first grant drops the windows before the previous one (as in LMDB);
 * the hash also expires two windows after its last grant, so idle keys leave nothing behind.
 */
import type { Lease, RateLeases, RateWindow } from './repository.js';
import type { RedisContext } from '../redis/context.js';
import { luaScript, runScript } from '../redis/script.js';

/** TTL of a key's windows after its last grant, in ms: two windows (every window of it is then older than the previous one). */
const TTL_MS: Readonly<Record<RateWindow, number>> = { minute: 2 * 60_000, hour: 2 * 3_600_000 };

/** KEYS: the hash. ARGV: window id, want, limit, ttl ms. @returns {granted, leased}. */
const TAKE = luaScript(
  'rate-take',
  `local w = tonumber(ARGV[1])
local stored = redis.call('HGET', KEYS[1], ARGV[1])
local leased = tonumber(stored or '0')
local granted = math.max(0, math.min(tonumber(ARGV[2]), tonumber(ARGV[3]) - leased))
if granted == 0 then return {0, leased} end
if not stored then
  for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do
    if tonumber(f) < w - 1 then redis.call('HDEL', KEYS[1], f) end
  end
end
redis.call('HSET', KEYS[1], ARGV[1], leased + granted)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {granted, leased + granted}`,
);

/** KEYS: the hash. ARGV: window id, unused. No effect when the window is gone; never below 0. */
const RELEASE = luaScript(
  'rate-release',
  `local leased = redis.call('HGET', KEYS[1], ARGV[1])
if not leased then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], math.max(0, tonumber(leased) - tonumber(ARGV[2])))
return 1`,
);

const kindOf = (window: RateWindow): 'm' | 'h' => (window === 'minute' ? 'm' : 'h');

/** Rate-limit leases in Redis (volatile state: losing it re-opens at most one window's budget). */
export class RedisRateLeases implements RateLeases {
  constructor(private readonly c: RedisContext) {}

  async take(keyId: string, window: RateWindow, windowId: number, want: number, limit: number): Promise<Lease> {
    const key = this.c.keys.rate(keyId, kindOf(window));
    const [granted, leased] = (await runScript(this.c.redis, TAKE, [key], [windowId, want, limit, TTL_MS[window]])) as [
      number,
      number,
    ];
    return { granted, leased };
  }

  async leased(keyId: string, window: RateWindow, windowId: number): Promise<number> {
    return Number((await this.c.redis.hget(this.c.keys.rate(keyId, kindOf(window)), String(windowId))) ?? 0);
  }

  async release(keyId: string, window: RateWindow, windowId: number, unused: number): Promise<void> {
    if (unused <= 0) return;
    await runScript(this.c.redis, RELEASE, [this.c.keys.rate(keyId, kindOf(window))], [windowId, unused]);
  }

  /** The store owns the client: nothing to close here. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
