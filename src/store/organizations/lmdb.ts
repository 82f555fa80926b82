/** @module store/organizations/lmdb: OrganizationsRepository on LMDB (`orgs`, `keys`, `key-hashes`, `org-keys`, `key-last-used`, `watermarks`). */
import type { KeyRecord, OrgRecord } from '../../model/records.js';
import type { KeyPatch, KeyUse, OrganizationsRepository, WatermarkEntry } from './repository.js';
import type { LmdbTables } from '../lmdb/tables.js';
import { k } from '../lmdb/tables.js';
import { prefixKeys } from '../lmdb/ranges.js';

/** Organizations and keys in LMDB; the key-hash and organization indexes are written with each key. */
export class LmdbOrganizations implements OrganizationsRepository {
  constructor(private readonly t: LmdbTables) {}

  async createOrg(org: OrgRecord): Promise<void> {
    await this.t.orgs.put(org.org_id, org);
    await this.t.flushed();
  }

  getOrg(orgId: string): OrgRecord | undefined {
    return this.t.orgs.get(orgId);
  }

  listOrgs(): OrgRecord[] {
    return [...this.t.orgs.getRange()].map((e) => e.value);
  }

  isEmpty(): boolean {
    for (const _ of this.t.orgs.getKeys({ limit: 1 })) return false;
    return true;
  }

  async createKey(record: KeyRecord): Promise<void> {
    await this.t.root.transaction(() => {
      this.t.keys.putSync(record.key_id, record);
      this.t.keyHashes.putSync(record.hash, record.key_id);
      this.t.orgKeys.putSync(k(record.org_id, record.key_id), '');
    });
    await this.t.flushed();
  }

  getKey(keyId: string): KeyRecord | undefined {
    return this.t.keys.get(keyId);
  }

  keyIdByHash(hash: string): string | undefined {
    return this.t.keyHashes.get(hash);
  }

  listKeys(orgId: string): KeyRecord[] {
    const out: KeyRecord[] = [];
    for (const key of prefixKeys(this.t.orgKeys, [orgId])) {
      const record = this.t.keys.get(key.slice(orgId.length + 1));
      if (record) out.push(record);
    }
    return out.sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  async updateKey(keyId: string, patch: KeyPatch): Promise<KeyRecord | undefined> {
    const next = await this.t.root.transaction(() => {
      const key = this.t.keys.get(keyId);
      if (!key) return undefined;
      const updated: KeyRecord = { ...key, ...patch };
      this.t.keys.putSync(keyId, updated);
      return updated;
    });
    if (next) await this.t.flushed();
    return next;
  }

  async recordWatermark(watermark: string, entry: WatermarkEntry): Promise<void> {
    await this.t.watermarks.put(watermark, entry);
  }

  findWatermark(watermark: string): WatermarkEntry | undefined {
    return this.t.watermarks.get(watermark);
  }

  /** One transaction; the maximum is kept by reading inside it (LMDB serialises writers across processes). */
  async recordKeyUse(entries: readonly KeyUse[]): Promise<void> {
    if (entries.length === 0) return;
    await this.t.root.transaction(() => {
      for (const { keyId, atMs } of entries) {
        if (!this.t.keys.doesExist(keyId)) continue;
        const stored = this.t.keyLastUsed.get(keyId);
        if (stored === undefined || stored < atMs) this.t.keyLastUsed.putSync(keyId, atMs);
      }
    });
  }

  keyLastUsed(keyIds: readonly string[]): Map<string, number> {
    const out = new Map<string, number>();
    for (const keyId of keyIds) {
      const at = this.t.keyLastUsed.get(keyId);
      if (at !== undefined) out.set(keyId, at);
    }
    return out;
  }
}
