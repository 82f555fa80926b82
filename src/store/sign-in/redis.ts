/**
 * @module store/sign-in/redis: SignInThrottleRepository on Redis (`Psign-in:<key>` hashes;
 * store/redis/keys). One script per key and failure (each touches one key, so it also runs on a
 * cluster); a key expires once its window and its lock are over.
 */
import type { SignInThrottleRepository, ThrottleCount, ThrottleKey } from './repository.js';
import type { RedisContext } from '../redis/context.js';
import { luaScript, runScript } from '../redis/script.js';

/**
 * KEYS: the key's hash (`c` count, `s` window start ms, `l` locked until ms). ARGV: now ms, window
 * ms, lock ms, limit. Returns `{ count, locked until or 0 }`.
 */
const RECORD_FAILURE = luaScript(
  'sign-in-failure',
  `local now, window, lock, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local h = redis.call('HMGET', KEYS[1], 'c', 's', 'l')
local c, s, l = tonumber(h[1]) or 0, tonumber(h[2]) or 0, tonumber(h[3]) or 0
if c == 0 or now - s >= window then c = 1; s = now else c = c + 1 end
if l <= now then l = 0 end
if l == 0 and c >= limit then l = now + lock end
redis.call('HSET', KEYS[1], 'c', c, 's', s, 'l', l)
local ttl = math.max(s + window, l) - now
redis.call('PEXPIRE', KEYS[1], math.max(ttl, 1))
return { c, l }`,
);

/** Sign-in failure counters in Redis. */
export class RedisSignInThrottle implements SignInThrottleRepository {
  constructor(private readonly c: RedisContext) {}

  recordFailure(
    keys: readonly ThrottleKey[],
    nowMs: number,
    windowMs: number,
    lockMs: number,
  ): Promise<ThrottleCount[]> {
    return Promise.all(
      keys.map(async ({ key, limit }) => {
        const [count, locked] = (await runScript(
          this.c.redis,
          RECORD_FAILURE,
          [this.c.keys.signIn(key)],
          [nowMs, windowMs, lockMs, limit],
        )) as [number, number];
        return { count, lockedUntil: locked > 0 ? locked : null };
      }),
    );
  }

  async lockedUntil(keys: readonly string[], nowMs: number): Promise<number | null> {
    const locks = await Promise.all(keys.map((key) => this.c.redis.hget(this.c.keys.signIn(key), 'l')));
    const until = Math.max(0, ...locks.map((l) => Number(l ?? 0)));
    return until > nowMs ? until : null;
  }

  async reset(key: string): Promise<void> {
    await this.c.redis.del(this.c.keys.signIn(key));
  }
}
