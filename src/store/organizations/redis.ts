/**
 * @module store/organizations/redis: OrganizationsRepository on Redis (`Porgs`, `Pkey:<id>`,
 * `Pkey-hashes`, `P{org}:keys`, `Pkey-last-used`, `Pwatermarks`; store/redis/keys). A key and its two indexes are
 * written by one script; a key's update is a compare-and-set on its bytes.
 */
import type { KeyRecord, OrgRecord } from '../../model/records.js';
import type { KeyPatch, KeyUse, OrganizationsRepository, WatermarkEntry } from './repository.js';
import type { RedisContext } from '../redis/context.js';
import { byCodePoint, packRecord, unpackRecord, valuesById } from '../redis/codec.js';
import { luaScript, runScript } from '../redis/script.js';

/** KEYS: key record, key-hashes, org's key set, counts. ARGV: record, hash, key id. Counts a key only when it is new. */
const CREATE_KEY = luaScript(
  'create-key',
  `local old = redis.call('SET', KEYS[1], ARGV[1], 'GET')
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[3])
if not old then redis.call('HINCRBY', KEYS[4], 'keys', 1) end
return 1`,
);

/** KEYS: a string key. ARGV: expected bytes, new bytes. @returns 1 when it held the expected bytes and was replaced, else 0. */
export const COMPARE_AND_SET = luaScript(
  'compare-and-set',
  `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1`,
);

/**
 * KEYS: the last-used hash, then one key record per entry. ARGV: key id and epoch ms (decimal) per
 * entry, in KEYS' order. Sets each existing key's time unless a later one is stored (max wins across nodes).
 */
const RECORD_KEY_USE = luaScript(
  'record-key-use',
  `for i = 2, #KEYS do
  local id = ARGV[2 * i - 3]
  local at = ARGV[2 * i - 2]
  if redis.call('EXISTS', KEYS[i]) == 1 then
    local stored = redis.call('HGET', KEYS[1], id)
    if not stored or tonumber(stored) < tonumber(at) then redis.call('HSET', KEYS[1], id, at) end
  end
end
return 1`,
);

/** Organizations, API keys and watermarks in Redis. */
export class RedisOrganizations implements OrganizationsRepository {
  constructor(private readonly c: RedisContext) {}

  async createOrg(org: OrgRecord): Promise<void> {
    await this.c.redis.hset(this.c.keys.orgs, org.org_id, packRecord(org));
  }

  async getOrg(orgId: string): Promise<OrgRecord | undefined> {
    return unpackRecord<OrgRecord>(await this.c.redis.hgetBuffer(this.c.keys.orgs, orgId));
  }

  async listOrgs(): Promise<OrgRecord[]> {
    return valuesById(await this.c.redis.hgetallBuffer(this.c.keys.orgs), (b) => unpackRecord<OrgRecord>(b)!);
  }

  async isEmpty(): Promise<boolean> {
    return (await this.c.redis.exists(this.c.keys.orgs)) === 0;
  }

  async createKey(record: KeyRecord): Promise<void> {
    const k = this.c.keys;
    await runScript(
      this.c.redis,
      CREATE_KEY,
      [k.key(record.key_id), k.keyHashes, k.orgKeys(record.org_id), k.counts],
      [packRecord(record), record.hash, record.key_id],
    );
  }

  async getKey(keyId: string): Promise<KeyRecord | undefined> {
    return unpackRecord<KeyRecord>(await this.c.redis.getBuffer(this.c.keys.key(keyId)));
  }

  async keyIdByHash(hash: string): Promise<string | undefined> {
    return (await this.c.redis.hget(this.c.keys.keyHashes, hash)) ?? undefined;
  }

  /** Two round trips: the organization's key ids, then their records (MGET). Ties of `created_at` stay in id order, as in LMDB. */
  async listKeys(orgId: string): Promise<KeyRecord[]> {
    const ids = (await this.c.redis.smembers(this.c.keys.orgKeys(orgId))).sort(byCodePoint);
    if (ids.length === 0) return [];
    const records = await this.c.redis.mgetBuffer(...ids.map((id) => this.c.keys.key(id)));
    const out: KeyRecord[] = [];
    for (const bytes of records) {
      const record = unpackRecord<KeyRecord>(bytes);
      if (record) out.push(record);
    }
    return out.sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  /** Read, patch, then compare-and-set on the bytes read: a concurrent update makes it read again, so no patch is lost. */
  async updateKey(keyId: string, patch: KeyPatch): Promise<KeyRecord | undefined> {
    const key = this.c.keys.key(keyId);
    for (;;) {
      const bytes = await this.c.redis.getBuffer(key);
      const current = unpackRecord<KeyRecord>(bytes);
      if (!bytes || !current) return undefined;
      const updated: KeyRecord = { ...current, ...patch };
      if ((await runScript(this.c.redis, COMPARE_AND_SET, [key], [bytes, packRecord(updated)])) === 1) return updated;
    }
  }

  async recordWatermark(watermark: string, entry: WatermarkEntry): Promise<void> {
    await this.c.redis.hset(this.c.keys.watermarks, watermark, packRecord(entry));
  }

  async findWatermark(watermark: string): Promise<WatermarkEntry | undefined> {
    return unpackRecord<WatermarkEntry>(await this.c.redis.hgetBuffer(this.c.keys.watermarks, watermark));
  }

  async recordKeyUse(entries: readonly KeyUse[]): Promise<void> {
    if (entries.length === 0) return;
    const k = this.c.keys;
    await runScript(
      this.c.redis,
      RECORD_KEY_USE,
      [k.keyLastUsed, ...entries.map((e) => k.key(e.keyId))],
      entries.flatMap((e) => [e.keyId, String(Math.trunc(e.atMs))]),
    );
  }

  async keyLastUsed(keyIds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (keyIds.length === 0) return out;
    const values = await this.c.redis.hmget(this.c.keys.keyLastUsed, ...keyIds);
    values.forEach((v, i) => {
      if (v !== null) out.set(keyIds[i]!, Number(v));
    });
    return out;
  }
}
