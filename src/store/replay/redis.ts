/**
 * @module store/replay/redis: ReplayRepository on Redis: one sorted set `Preplay`, members
 * `<t>:<signature>` scored by the signing time t (unix s). ZADD NX is the conditional write (of
 * concurrent adds of one member exactly one reports it added), and the score makes `sweep` one
 * ZREMRANGEBYSCORE over exactly the expired entries that reports how many it removed; keys of
 * their own with a TTL could do neither.
 */
import type { AcceptedSignature, ReplayRepository } from './repository.js';
import type { RedisContext } from '../redis/context.js';
import { luaScript, runScript } from '../redis/script.js';

/** KEYS: the set. ARGV: t, member pairs. @returns the 1-based positions of pairs already present (repeats in the batch included). */
const RECORD = luaScript(
  'replay-record',
  `local seen = {}
for i = 1, #ARGV, 2 do
  if redis.call('ZADD', KEYS[1], 'NX', ARGV[i], ARGV[i + 1]) == 0 then seen[#seen + 1] = (i + 1) / 2 end
end
return seen`,
);

const memberOf = (signature: string, t: number): string => `${t}:${signature}`;

/** Accepted signatures in Redis. */
export class RedisReplay implements ReplayRepository {
  constructor(private readonly c: RedisContext) {}

  async has(signature: string, t: number): Promise<boolean> {
    return (await this.c.redis.zscore(this.c.keys.replay, memberOf(signature, t))) !== null;
  }

  /** One script for the batch: atomic, one round trip. */
  async record(accepted: readonly AcceptedSignature[]): Promise<AcceptedSignature[]> {
    if (accepted.length === 0) return [];
    const args = accepted.flatMap((a) => [a.t, memberOf(a.signature, a.t)]);
    const seen = (await runScript(this.c.redis, RECORD, [this.c.keys.replay], args)) as number[];
    return seen.map((position) => accepted[position - 1]!);
  }

  /** Exactly the entries with t < beforeT (`(` makes the bound exclusive). */
  async sweep(beforeT: number): Promise<number> {
    return this.c.redis.zremrangebyscore(this.c.keys.replay, '-inf', `(${beforeT}`);
  }
}
