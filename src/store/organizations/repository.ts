/**
 * @module store/organizations/repository: the organizations-and-keys aggregate: organizations, API keys (with
 * the keyed-hash index and the per-organization index) and watermarks (spec §1 "Watermark").
 */
import type { KeyRecord, OrgRecord } from '../../model/records.js';
import type { Awaitable } from '../awaitable.js';

/** The fields of a key that may change after it is created (revocation, rotation, limits, allowlist). */
export type KeyPatch = Partial<
  Pick<KeyRecord, 'expires_at' | 'revoked_at' | 'per_minute' | 'per_hour' | 'allow_ips' | 'permissions'>
>;

/** Which key and day a watermark stands for (leak tracing). */
export interface WatermarkEntry {
  readonly key_id: string;
  readonly org_id: string;
  /** UTC day, `YYYY-MM-DD`. */
  readonly day: string;
}

/** One key's latest use seen by a node (issue 18, "last used"). */
export interface KeyUse {
  readonly keyId: string;
  /** When the key was last used, in epoch ms. */
  readonly atMs: number;
}

/**
 * Organizations, their API keys and watermarks. Writes resolve once durable (flushed), except
 * `recordWatermark` and `recordKeyUse`, which resolve once committed. Reads see every write that resolved.
 */
export interface OrganizationsRepository {
  /** Stores a new organization. */
  createOrg(org: OrgRecord): Promise<void>;
  getOrg(orgId: string): Awaitable<OrgRecord | undefined>;
  /** Every organization, by id. */
  listOrgs(): Awaitable<OrgRecord[]>;
  /** True when no organization exists yet (first start). */
  isEmpty(): Awaitable<boolean>;
  /** Stores a new key with its hash index and organization index, atomically. */
  createKey(record: KeyRecord): Promise<void>;
  getKey(keyId: string): Awaitable<KeyRecord | undefined>;
  /** The id of the key whose keyed hash (hex) is `hash`, or undefined. */
  keyIdByHash(hash: string): Awaitable<string | undefined>;
  /** An organization's keys, newest first (reads the organization's index, not every key). */
  listKeys(orgId: string): Awaitable<KeyRecord[]>;
  /** Applies `patch` to a key in one read-modify-write transaction. @returns the new record, or undefined when the key does not exist. */
  updateKey(keyId: string, patch: KeyPatch): Promise<KeyRecord | undefined>;
  /** Records what a watermark stands for (idempotent). */
  recordWatermark(watermark: string, entry: WatermarkEntry): Promise<void>;
  findWatermark(watermark: string): Awaitable<WatermarkEntry | undefined>;
  /**
   * Records when keys were last used, in one write (one transaction on LMDB, one script on Redis),
   * beside the key records (which it never rewrites). Keeps the maximum: an entry older than the
   * stored time (a node whose flush is late) changes nothing. Entries of keys that do not exist are
   * ignored; an empty list writes nothing.
   */
  recordKeyUse(entries: readonly KeyUse[]): Promise<void>;
  /** When each of `keyIds` was last used (epoch ms); keys never recorded are absent from the map. */
  keyLastUsed(keyIds: readonly string[]): Awaitable<Map<string, number>>;
}
