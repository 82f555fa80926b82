/** @module server/auth/keys: API key lifecycle (create, look up, rotate, revoke, limits, IP allowlist). */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { KeyRecord, OrgRecord, Permission } from '../../model/records.js';
import type { KeyPatch, OrganizationsRepository } from '../../store/organizations/repository.js';
import type { ServerSecrets } from './server-secrets.js';
import { thenMaybe, type Awaitable } from '../../store/awaitable.js';
import { ALL_PERMISSIONS } from '../../model/records.js';

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
  | { readonly ok: false; readonly reason: 'format' | 'unknown' }
  /** A known key that may no longer be used; `keyId` is for the refusal's log line. */
  | { readonly ok: false; readonly reason: 'revoked' | 'expired'; readonly keyId: string };

/** Why a key operation was refused. */
export type KeyErrorCode = 'organization_not_found' | 'key_not_found' | 'key_revoked' | 'key_inactive';

/** A refused key operation; callers branch on `code`, the message is for people. */
export class KeyError extends Error {
  override readonly name = 'KeyError';
  constructor(readonly code: KeyErrorCode) {
    super(KEY_ERROR_MESSAGES[code]);
  }
}

const KEY_ERROR_MESSAGES: Readonly<Record<KeyErrorCode, string>> = {
  organization_not_found: 'Organization not found',
  key_not_found: 'Key not found',
  key_revoked: 'Key already revoked',
  key_inactive: 'Key cannot be rotated (inactive or revoked)',
};

/** Key operations over the store. Used by the server (look-ups) and the admin CLI (lifecycle). */
export class KeyService {
  private readonly keyFormat: RegExp;

  constructor(
    private readonly store: OrganizationsRepository,
    private readonly secrets: ServerSecrets,
    readonly prefix: string,
  ) {
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
    await this.store.createOrg(org);
    return org;
  }

  /** Creates a key for an organization. @throws KeyError `organization_not_found`. */
  async createKey(
    orgId: string,
    options: CreateKeyOptions = {},
    rotatedFrom: string | null = null,
  ): Promise<IssuedKey> {
    if (!(await this.store.getOrg(orgId))) throw new KeyError('organization_not_found');
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
    await this.store.createKey(record);
    return { key_id: keyId, api_key: apiKey, signing_secret: this.signingSecret(keyId), record };
  }

  /**
   * Looks a presented key up: format, keyed-hash index, constant-time hash compare, state.
   * Synchronous when the store answers synchronously (LMDB), a promise otherwise (Redis).
   * @param nowMs current time in epoch ms (injectable for tests).
   */
  lookup(apiKey: string, nowMs: number): Awaitable<KeyLookup> {
    if (!this.keyFormat.test(apiKey)) return { ok: false, reason: 'format' };
    const hash = this.hashKey(apiKey);
    const key = thenMaybe(this.store.keyIdByHash(hash), (keyId) =>
      keyId === undefined ? undefined : this.store.getKey(keyId),
    );
    return thenMaybe(key, (found): KeyLookup => {
      if (!found) return { ok: false, reason: 'unknown' };
      const a = Buffer.from(found.hash, 'hex');
      const b = Buffer.from(hash, 'hex');
      if (a.length !== b.length || !timingSafeEqual(a, b)) return { ok: false, reason: 'unknown' };
      return this.state(found, nowMs);
    });
  }

  /** Active, revoked or expired, at `nowMs`. */
  state(key: KeyRecord, nowMs: number): KeyLookup {
    if (key.revoked_at !== null) return { ok: false, reason: 'revoked', keyId: key.key_id };
    if (key.expires_at !== null && Date.parse(key.expires_at) <= nowMs)
      return { ok: false, reason: 'expired', keyId: key.key_id };
    return { ok: true, key };
  }

  /** A key by id, or undefined. */
  find(keyId: string): Awaitable<KeyRecord | undefined> {
    return this.store.getKey(keyId);
  }

  /** Keys of an organization, newest first (no secrets); reads the organization's index, not every key. */
  list(orgId: string): Awaitable<KeyRecord[]> {
    return this.store.listKeys(orgId);
  }

  /**
   * When each of `keyIds` was last used, epoch ms (absent: never, as far as the store knows). The
   * store lags real use by up to KEY_USE_FLUSH_MS (server/auth/key-usage).
   */
  lastUsed(keyIds: readonly string[]): Awaitable<Map<string, number>> {
    return this.store.keyLastUsed(keyIds);
  }

  /** Revokes a key. @throws KeyError `key_not_found` / `key_revoked`. */
  async revoke(keyId: string): Promise<KeyRecord> {
    const key = await this.store.getKey(keyId);
    if (!key) throw new KeyError('key_not_found');
    if (key.revoked_at !== null) throw new KeyError('key_revoked');
    return this.update(keyId, { revoked_at: new Date().toISOString() });
  }

  /**
   * Rotates a key: a new key and signing secret with the same org, permissions, limits and allowlist;
   * the old key expires after `overlapMs` (0 = immediately).
   * @throws KeyError `key_not_found` / `key_inactive`.
   */
  async rotate(keyId: string, overlapMs: number, nowMs = Date.now()): Promise<IssuedKey> {
    const key = await this.store.getKey(keyId);
    if (!key) throw new KeyError('key_not_found');
    if (!this.state(key, nowMs).ok) throw new KeyError('key_inactive');
    const issued = await this.createKey(
      key.org_id,
      {
        name: key.name,
        permissions: key.permissions,
        allowIps: key.allow_ips,
        expiresAt: key.expires_at,
        perMinute: key.per_minute,
        perHour: key.per_hour,
      },
      key.key_id,
    );
    const until = new Date(nowMs + overlapMs).toISOString();
    const expiresAt = key.expires_at !== null && key.expires_at < until ? key.expires_at : until;
    await this.update(keyId, { expires_at: expiresAt });
    return issued;
  }

  /** Applies a partial update to a key record. @throws KeyError `key_not_found`. */
  async update(keyId: string, patch: KeyPatch): Promise<KeyRecord> {
    const next = await this.store.updateKey(keyId, patch);
    if (!next) throw new KeyError('key_not_found');
    return next;
  }
}
