/**
 * @module store/audit/redis: AuditRepository on Redis (`P{org}:audit-seq`, `P{org}:audit`;
 * store/redis/keys): the sequence is taken and the entry added by one script, in the organization's
 * slot.
 */
import type { AuditEntry, AuditRepository, StoredAuditEntry } from './repository.js';
import type { RedisContext } from '../redis/context.js';
import { luaScript, runScript } from '../redis/script.js';

/**
 * KEYS: the sequence counter, the log zset. ARGV: the entry (JSON). The member is `<seq>:<JSON>`
 * (unique even for equal entries), scored by its sequence. Returns the sequence.
 */
const APPEND = luaScript(
  'audit-append',
  `local n = redis.call('INCR', KEYS[1])
redis.call('ZADD', KEYS[2], n, n .. ':' .. ARGV[1])
return n`,
);

/** The audit log in Redis. */
export class RedisAudit implements AuditRepository {
  constructor(private readonly c: RedisContext) {}

  async append(entry: AuditEntry): Promise<number> {
    const k = this.c.keys;
    return Number(
      await runScript(this.c.redis, APPEND, [k.auditSeq(entry.org_id), k.audit(entry.org_id)], [JSON.stringify(entry)]),
    );
  }

  async list(orgId: string, limit: number, before?: number): Promise<StoredAuditEntry[]> {
    if (limit <= 0) return [];
    const max = before === undefined ? '+inf' : `(${before}`;
    const members = await this.c.redis.zrevrangebyscore(this.c.keys.audit(orgId), max, '-inf', 'LIMIT', 0, limit);
    return members.map((m) => {
      const colon = m.indexOf(':');
      return { ...(JSON.parse(m.slice(colon + 1)) as AuditEntry), seq: Number(m.slice(0, colon)) };
    });
  }
}
