/** @module server/pipeline/authenticate: Bearer key format, look-up and state (spec §5.1, key states). */
import type { KeyLookup, KeyService } from '../auth/keys.js';
import type { KeyUsage } from '../auth/key-usage.js';
import type { Stage } from './types.js';
import type { ApiResponse, RequestContext } from '../http/types.js';
import { isPromise, thenMaybe, type Awaitable } from '../../store/awaitable.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';

/**
 * How long a key look-up (and whether its organization exists) is cached in memory, in ms: CLI
 * changes (revoke, limits, organization removal) apply within this.
 */
export const KEY_CACHE_TTL_MS = 1000;
const KEY_CACHE_MAX = 10_000;

/**
 * Authenticates `Authorization: Bearer <key>`: 401 `Missing or invalid Authorization header` without
 * one, 401 `Invalid API key format` without the `<prefix>_live_<48 hex>` form, 401 `Invalid or
 * expired API key` for unknown, revoked or expired keys, 401 `API key context missing` when the
 * key's organization no longer exists. Look-ups are cached for KEY_CACHE_TTL_MS (one store read per key, node and second, not per request;
 * on Redis this also bounds how long a revoked key is accepted by any node).
 * Each admitted key is marked used at that time in `usage` (memory only; written behind in batches):
 * a key that passed this stage counts as used even if a later stage (IP allowlist, signature, rate
 * limit) refuses the request, since whoever sent it holds the key.
 */
export function authenticate(
  keys: KeyService,
  now: () => number,
  orgExists: (orgId: string) => Awaitable<boolean>,
  usage: Pick<KeyUsage, 'mark'>,
): Stage {
  const cache = new Map<string, CachedKey>();
  let lastHeader: string | null = null;
  let lastEntry: CachedKey | undefined;
  /** The look-up of `apiKey` and whether its organization exists: synchronous on LMDB, a promise on Redis. */
  function resolve(apiKey: string, t: number): Awaitable<CachedKey> {
    return thenMaybe(keys.lookup(apiKey, t), (lookup) =>
      thenMaybe(lookup.ok ? orgExists(lookup.key.org_id) : false, (exists) => ({
        lookup,
        orgExists: exists,
        until: t + KEY_CACHE_TTL_MS,
      })),
    );
  }
  return function authenticateKey(req, ctx) {
    const header = req.headers['authorization'];
    if (header === undefined) return fail(API_ERRORS.missingAuthorization);
    const t = now();
    // Cached by the whole header value: a known key skips the format checks too. The last header
    // seen is compared first (a client's requests come in runs): no hash of it computed per request.
    let entry = header === lastHeader ? lastEntry : undefined;
    if (entry === undefined || entry.until <= t) entry = cache.get(header);
    if (entry && entry.until > t) {
      lastHeader = header;
      lastEntry = entry;
      return admit(keys, usage, entry, t, ctx);
    }
    if (!/^Bearer\s+\S+$/i.test(header)) return fail(API_ERRORS.missingAuthorization);
    const apiKey = header.slice(header.indexOf(' ') + 1).trim();
    if (!keys.hasPrefix(apiKey)) return fail(API_ERRORS.invalidKeyFormat);
    const resolved = resolve(apiKey, t);
    const store = (fresh: CachedKey): ApiResponse | null => {
      if (cache.size >= KEY_CACHE_MAX) cache.clear();
      cache.set(header, fresh);
      return admit(keys, usage, fresh, t, ctx);
    };
    return isPromise(resolved) ? resolved.then(store) : store(resolved);
  };
}

/** A cached key look-up. */
interface CachedKey {
  readonly lookup: KeyLookup;
  readonly orgExists: boolean;
  /** Epoch ms until which the entry is used. */
  readonly until: number;
}

/** Admits the key of `entry` at `t` (sets `ctx.key`, marks it used) or answers 401. */
function admit(
  keys: KeyService,
  usage: Pick<KeyUsage, 'mark'>,
  entry: CachedKey,
  t: number,
  ctx: RequestContext,
): ApiResponse | null {
  let lookup = entry.lookup;
  // Expiry and revocation are re-checked on every call (a key that has neither needs no new object).
  if (lookup.ok && (lookup.key.revoked_at !== null || lookup.key.expires_at !== null))
    lookup = keys.state(lookup.key, t);
  if (!lookup.ok) {
    if (!('keyId' in lookup))
      return fail(lookup.reason === 'format' ? API_ERRORS.invalidKeyFormat : API_ERRORS.invalidKey);
    return fail(API_ERRORS.invalidKey, {
      reason: lookup.reason === 'revoked' ? 'key_revoked' : 'key_expired',
      keyId: lookup.keyId,
    });
  }
  // A valid key whose organization is gone (deleted while the key lived): spec §7 "API key context missing".
  if (!entry.orgExists) return fail(API_ERRORS.keyContextMissing, { keyId: lookup.key.key_id });
  ctx.key = lookup.key;
  usage.mark(lookup.key.key_id, t);
  return null;
}
