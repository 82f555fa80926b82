/** @module server/auth/keys: API key lifecycle (create, look up, rotate, revoke, limits, IP allowlist). */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { KeyRecord, OrgRecord, Permission } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { ServerSecrets } from './server-secrets.js';
import { ALL_PERMISSIONS } from '../../store/records.js';
import { prefixKeys } from '../../store/ranges.js';
import { k } from '../../store/store.js';

/** Default per-key limits (spec §8). */
export const DEFAULT_PER_MINUTE = 60;
export const DEFAULT_PER_HOUR = 1000;

/** A freshly created or rotated key: the clear values are returned once and never stored. */
export interface IssuedKey {
  readonly key_id: string;
  readonly api_key: string;
  readonly signing_secret: string;
  readonly record: KeyRecord;
}

/** Options of `createKey`. */
export interface CreateKeyOptions {
  readonly name?: string;
  readonly permissions?: readonly Permission[];
  readonly expiresAt?: string | null;
  readonly allowIps?: readonly string[];
  readonly perMinute?: number;
  readonly perHour?: number;
}

/** Result of looking a presented key up. */
export type KeyLookup =
  | { readonly ok: true; readonly key: KeyRecord }
  | { readonly ok: false; readonly reason: 'format' | 'unknown' | 'revoked' | 'expired' };

/** Key operations over the store. Used by the server (look-ups) and the admin CLI (lifecycle). */
export class KeyService {
  private readonly keyFormat: RegExp;

  constructor(private readonly store: Store, private readonly secrets: ServerSecrets, readonly prefix: string) {
    this.keyFormat = new RegExp(`^${prefix}_live_[0-9a-f]{48}$`);
  }

  /** True when the presented string starts with `<prefix>_live_` (spec §5.1). */
  hasPrefix(apiKey: string): boolean {
    return apiKey.startsWith(`${this.prefix}_live_`);
  }

  /** Keyed hash of a presented key (HMAC-SHA256 with the pepper), hex. */
  hashKey(apiKey: string): string {
    return createHmac('sha256', this.secrets.pepper).update(apiKey).digest('hex');
  }

  /** The request-signing secret of a key: `<prefix>_sig_` + hex HMAC-SHA256(master, "sig|" + key id) (design notes). */
  signingSecret(keyId: string): string {
    return `${this.prefix}_sig_${createHmac('sha256', this.secrets.master).update(`sig|${keyId}`).digest('hex')}`;
  }

  /** Creates an organization. */
  async createOrg(name: string, orgId: string = randomUUID()): Promise<OrgRecord> {
    const org: OrgRecord = { org_id: orgId, name, created_at: new Date().toISOString() };
    await this.store.orgs.put(org.org_id, org);
    await this.store.flushed();
    return org;
  }

  /** Creates a key for an organization. @throws Error `Organization not found` when the org does not exist. */
  async createKey(orgId: string, options: CreateKeyOptions = {}, rotatedFrom: string | null = null): Promise<IssuedKey> {
    if (!this.store.orgs.get(orgId)) throw new Error('Organization not found');
    const keyId = `key_${randomBytes(8).toString('hex')}`;
    const apiKey = `${this.prefix}_live_${randomBytes(24).toString('hex')}`;
    const record: KeyRecord = {
      key_id: keyId,
      org_id: orgId,
      name: options.name ?? 'default',
      hash: this.hashKey(apiKey),
      display_prefix: `${apiKey.slice(0, this.prefix.length + 10)}…`,
      permissions: [...(options.permissions ?? ALL_PERMISSIONS)],
      allow_ips: [...(options.allowIps ?? [])],
      expires_at: options.expiresAt ?? null,
      revoked_at: null,
      per_minute: options.perMinute ?? DEFAULT_PER_MINUTE,
      per_hour: options.perHour ?? DEFAULT_PER_HOUR,
      created_at: new Date().toISOString(),
      rotated_from: rotatedFrom,
    };
    await this.store.root.transaction(() => {
      this.store.keys.put(keyId, record);
      this.store.keyHashes.put(record.hash, keyId);
      this.store.orgKeys.put(k(orgId, keyId), '');
    });
    await this.store.flushed();
    return { key_id: keyId, api_key: apiKey, signing_secret: this.signingSecret(keyId), record };
  }

  /**
   * Looks a presented key up: format, keyed-hash index, constant-time hash compare, state.
   * @param nowMs current time in epoch ms (injectable for tests).
   */
  lookup(apiKey: string, nowMs: number): KeyLookup {
    if (!this.keyFormat.test(apiKey)) return { ok: false, reason: 'format' };
    const hash = this.hashKey(apiKey);
    const keyId = this.store.keyHashes.get(hash);
    const key = keyId ? this.store.keys.get(keyId) : undefined;
    if (!key) return { ok: false, reason: 'unknown' };
    const a = Buffer.from(key.hash, 'hex');
    const b = Buffer.from(hash, 'hex');
    if (a.length !== b.length || !timingSafeEqual(a, b)) return { ok: false, reason: 'unknown' };
    return this.state(key, nowMs);
  }

  /** Active, revoked or expired, at `nowMs`. */
  state(key: KeyRecord, nowMs: number): KeyLookup {
    if (key.revoked_at !== null) return { ok: false, reason: 'revoked' };
    if (key.expires_at !== null && Date.parse(key.expires_at) <= nowMs) return { ok: false, reason: 'expired' };
    return { ok: true, key };
  }

  /** A key by id, or undefined. */
  find(keyId: string): KeyRecord | undefined {
    return this.store.keys.get(keyId);
  }

  /** Keys of an organization, newest first (no secrets); reads the organization's index, not every key. */
  list(orgId: string): KeyRecord[] {
    const out: KeyRecord[] = [];
    for (const key of prefixKeys(this.store.orgKeys, [orgId])) {
      const record = this.store.keys.get(key.slice(orgId.length + 1));
      if (record) out.push(record);
    }
    return out.sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  /** Revokes a key. @throws Error `Key not found` / `Key already revoked`. */
  async revoke(keyId: string): Promise<KeyRecord> {
    const key = this.store.keys.get(keyId);
    if (!key) throw new Error('Key not found');
    if (key.revoked_at !== null) throw new Error('Key already revoked');
    return this.update(keyId, { revoked_at: new Date().toISOString() });
  }

  /**
   * Rotates a key: a new key and signing secret with the same org, permissions, limits and allowlist;
   * the old key expires after `overlapMs` (0 = immediately).
   * @throws Error `Key not found` / `Key cannot be rotated (inactive or revoked)`.
   */
  async rotate(keyId: string, overlapMs: number, nowMs = Date.now()): Promise<IssuedKey> {
    const key = this.store.keys.get(keyId);
    if (!key) throw new Error('Key not found');
    if (!this.state(key, nowMs).ok) throw new Error('Key cannot be rotated (inactive or revoked)');
    const issued = await this.createKey(key.org_id, {
      name: key.name, permissions: key.permissions, allowIps: key.allow_ips, expiresAt: key.expires_at, perMinute: key.per_minute, perHour: key.per_hour,
    }, key.key_id);
    const until = new Date(nowMs + overlapMs).toISOString();
    const expiresAt = key.expires_at !== null && key.expires_at < until ? key.expires_at : until;
    await this.update(keyId, { expires_at: expiresAt });
    return issued;
  }

  /** Applies a partial update to a key record. @throws Error `Key not found`. */
  async update(keyId: string, patch: Partial<Pick<KeyRecord, 'expires_at' | 'revoked_at' | 'per_minute' | 'per_hour' | 'allow_ips' | 'permissions'>>): Promise<KeyRecord> {
    const key = this.store.keys.get(keyId);
    if (!key) throw new Error('Key not found');
    const next: KeyRecord = { ...key, ...patch };
    await this.store.keys.put(keyId, next);
    await this.store.flushed();
    return next;
  }
}
