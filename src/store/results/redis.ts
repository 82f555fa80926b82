/**
 * @module store/results/redis: ResultsRepository on Redis (`P{org}:latest:<scenario>`: the
 * scenario's latest results bytes, remediation and contribution; `P{org}:rollup`: store/redis/rollup-hash).
 */
import { unpack } from 'msgpackr';
import type { RemediationMap, RollupContribution, RollupRecord } from '../../model/records.js';
import type { ResultsRepository } from './repository.js';
import type { RedisContext } from '../redis/context.js';
import { applyContribution, emptyRollup } from '../rollup.js';
import { luaScript, runScript } from '../redis/script.js';
import { rollupFromHash, rollupToHash } from '../redis/rollup-hash.js';

/** KEYS: rollup. ARGV: the `rev` read before computing, then field/value pairs. @returns 1 when replaced, 0 when the rollup changed meanwhile. */
const REPLACE_ROLLUP = luaScript(
  'rollup-replace',
  `local rev = redis.call('HGET', KEYS[1], 'rev') or '0'
if rev ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('HSET', KEYS[1], 'rev', tonumber(rev) + 1)
return 1`,
);

/** Latest results and rollups in Redis. */
export class RedisResults implements ResultsRepository {
  constructor(private readonly c: RedisContext) {}

  /** The bytes as stored (a copy of the evaluation's results, so the read is one HGET). */
  async latestJson(orgId: string, scenarioId: string): Promise<Uint8Array | undefined> {
    return (await this.c.redis.hgetBuffer(this.c.keys.latest(orgId, scenarioId), 'json')) ?? undefined;
  }

  async remediation(orgId: string, scenarioId: string): Promise<RemediationMap | undefined> {
    const packed = await this.c.redis.hgetBuffer(this.c.keys.latest(orgId, scenarioId), 'rem');
    return packed === null ? undefined : (unpack(packed) as RemediationMap);
  }

  async rollup(orgId: string): Promise<RollupRecord | undefined> {
    return rollupFromHash(orgId, await this.c.redis.hgetall(this.c.keys.rollup(orgId)));
  }

  /** O(fleet), two round trips: the organization's scenario ids, then every latest contribution. */
  async computeRollup(orgId: string, nowIso: string): Promise<RollupRecord> {
    const ids = await this.c.redis.hkeys(this.c.keys.scenarios(orgId));
    const contributions = await Promise.all(ids.map((id) => this.c.redis.hget(this.c.keys.latest(orgId, id), 'c')));
    let r = emptyRollup(orgId, nowIso);
    for (const json of contributions)
      if (json !== null) r = applyContribution(r, null, JSON.parse(json) as RollupContribution, nowIso);
    return { ...r, scenarios_total: ids.length };
  }

  /** Computes, then replaces the hash only if its `rev` is still the one read first; otherwise computes again. */
  async rebuildRollup(orgId: string, nowIso: string): Promise<RollupRecord> {
    const key = this.c.keys.rollup(orgId);
    for (;;) {
      const rev = (await this.c.redis.hget(key, 'rev')) ?? '0';
      const rebuilt = await this.computeRollup(orgId, nowIso);
      if ((await runScript(this.c.redis, REPLACE_ROLLUP, [key], [rev, ...rollupToHash(rebuilt)])) === 1) return rebuilt;
    }
  }
}
