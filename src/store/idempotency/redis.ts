/**
 * @module store/idempotency/redis: IdempotencyRepository on Redis. One hash per key, `Pidem:<key id>:<key>`:
 * `f` fingerprint, `e` expiry (epoch ms, compared with the caller's clock, so an injected clock is
 * honoured), `k` the claim's token and, once completed, `s` status, `h` headers (JSON pairs), `b` body
 * bytes. Each operation is one script (PITFALLS 34); the key also carries a PEXPIRE of the same span,
 * so Redis drops expired records itself and `sweep` has nothing to do.
 */
import { randomUUID } from 'node:crypto';
import type { ClaimOutcome, IdempotencyRepository, StoredResponse } from './repository.js';
import type { RedisContext } from '../redis/context.js';
import { luaScript, runScript } from '../redis/script.js';

/**
 * KEYS: the record. ARGV: fingerprint, now, running until, token, ttl ms.
 * @returns `{'claimed'}`, `{'running'}`, `{'mismatch'}` or `{'done', status, headers JSON, body}`.
 */
const CLAIM = luaScript(
  'idempotency-claim',
  `local held = redis.call('HMGET', KEYS[1], 'f', 'e', 's', 'h', 'b')
if held[1] and tonumber(held[2]) > tonumber(ARGV[2]) then
  if held[1] ~= ARGV[1] then return {'mismatch'} end
  if not held[3] then return {'running'} end
  return {'done', held[3], held[4], held[5]}
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'f', ARGV[1], 'e', ARGV[3], 'k', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {'claimed'}`,
);

/** KEYS: the record. ARGV: token, status, headers JSON, body, expires at, ttl ms. @returns 1 when stored, 0 when the claim is not the token's. */
const COMPLETE = luaScript(
  'idempotency-complete',
  `local held = redis.call('HMGET', KEYS[1], 'k', 's')
if held[1] ~= ARGV[1] or held[2] then return 0 end
redis.call('HSET', KEYS[1], 'e', ARGV[5], 's', ARGV[2], 'h', ARGV[3], 'b', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1`,
);

/** KEYS: the record. ARGV: token. @returns 1 when the running claim was dropped. */
const RELEASE = luaScript(
  'idempotency-release',
  `local held = redis.call('HMGET', KEYS[1], 'k', 's')
if held[1] ~= ARGV[1] or held[2] then return 0 end
redis.call('DEL', KEYS[1])
return 1`,
);

/** Idempotency records in Redis. */
export class RedisIdempotency implements IdempotencyRepository {
  constructor(private readonly c: RedisContext) {}

  async claim(
    keyId: string,
    key: string,
    fingerprint: string,
    now: number,
    runningUntil: number,
  ): Promise<ClaimOutcome> {
    const token = randomUUID();
    const ttl = Math.max(1, runningUntil - now);
    const reply = (await runScript(
      this.c.redis,
      CLAIM,
      [this.c.keys.idempotency(keyId, key)],
      [fingerprint, now, runningUntil, token, ttl],
      true,
    )) as Buffer[];
    const kind = reply[0]!.toString();
    if (kind === 'claimed') return { kind, token };
    if (kind === 'running' || kind === 'mismatch') return { kind };
    const headers = JSON.parse(reply[2]!.toString()) as [string, string][];
    return {
      kind: 'done',
      response: { status: Number(reply[1]!.toString()), headers, body: reply[3] ?? Buffer.alloc(0) },
    };
  }

  async complete(
    keyId: string,
    key: string,
    token: string,
    response: StoredResponse,
    now: number,
    expiresAt: number,
  ): Promise<boolean> {
    const ttl = Math.max(1, expiresAt - now);
    const args = [token, response.status, JSON.stringify(response.headers), response.body, expiresAt, ttl];
    return (await runScript(this.c.redis, COMPLETE, [this.c.keys.idempotency(keyId, key)], args)) === 1;
  }

  async release(keyId: string, key: string, token: string): Promise<boolean> {
    return (await runScript(this.c.redis, RELEASE, [this.c.keys.idempotency(keyId, key)], [token])) === 1;
  }

  /** Redis expires the records itself (PEXPIRE). */
  sweep(): Promise<number> {
    return Promise.resolve(0);
  }
}
