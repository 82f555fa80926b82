/** @module server/pipeline/authenticate: Bearer key format, look-up and state (spec §5.1, key states). */
import type { KeyLookup, KeyService } from '../auth/keys.js';
import type { Stage } from './types.js';
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
 * key's organization no longer exists. Look-ups are cached for KEY_CACHE_TTL_MS (one LMDB read per key and second, not per request).
 */
export function authenticate(keys: KeyService, now: () => number, orgExists: (orgId: string) => boolean): Stage {
  const cache = new Map<string, { lookup: KeyLookup; orgExists: boolean; until: number }>();
  return function authenticateKey(req, ctx) {
    const header = req.headers['authorization'];
    if (header === undefined) return fail(API_ERRORS.missingAuthorization);
    const t = now();
    // Cached by the whole header value: a known key skips the format checks too.
    let entry = cache.get(header);
    if (!entry || entry.until <= t) {
      if (!/^Bearer\s+\S+$/i.test(header)) return fail(API_ERRORS.missingAuthorization);
      const apiKey = header.slice(header.indexOf(' ') + 1).trim();
      if (!keys.hasPrefix(apiKey)) return fail(API_ERRORS.invalidKeyFormat);
      if (cache.size >= KEY_CACHE_MAX) cache.clear();
      const found = keys.lookup(apiKey, t);
      entry = { lookup: found, orgExists: found.ok && orgExists(found.key.org_id), until: t + KEY_CACHE_TTL_MS };
      cache.set(header, entry);
    }
    let lookup = entry.lookup;
    if (lookup.ok) lookup = keys.state(lookup.key, t); // expiry is re-checked on every call
    if (!lookup.ok) return fail(lookup.reason === 'format' ? API_ERRORS.invalidKeyFormat : API_ERRORS.invalidKey);
    // A valid key whose organization is gone (deleted while the key lived): spec §7 "API key context missing".
    if (!entry.orgExists) return fail(API_ERRORS.keyContextMissing);
    ctx.key = lookup.key;
    return null;
  };
}
