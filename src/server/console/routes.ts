/**
 * @module server/console/routes: the console's session-authenticated API (spec §4 "API-key
 * administration ... in the console through session-authenticated /api/v1/keys/*, for admin/owner
 * roles"; error rows of spec §7 marked "key-admin").
 *
 * Every console route is registered here: the key routes below, and the session
 * (console/session-routes), audit (console/audit-routes) and user (console/user-routes) routes.
 * Key changes made with the session cookie need `X-CSRF-Token` (console/csrf) and are audited.
 *
 * GET /api/v1/keys?org_id=…                      list
 * POST /api/v1/keys { org_id, name?, permissions?, expires_at? }   create (clear key and secret shown once)
 * POST /api/v1/keys/{key_id}/rotate { org_id, overlap_seconds? }
 * POST /api/v1/keys/{key_id}/revoke { org_id }   (also DELETE /api/v1/keys/{key_id}?org_id=…)
 */
import type { KeyRecord, Permission, SessionRecord } from '../../model/records.js';
import type { KeyService } from '../auth/keys.js';
import type { ApiRequest, ApiResponse } from '../http/types.js';
import type { Route } from '../router.js';
import type { ConsoleServices } from './services.js';
import { ALL_PERMISSIONS } from '../../model/records.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';
import { userActor } from '../audit.js';
import { guard } from './guard.js';
import { okPlain } from './reply.js';
import { sessionRoutes } from './session-routes.js';
import { auditRoutes } from './audit-routes.js';
import { userRoutes } from './user-routes.js';
import { DATE_TIME_RULE, parseDateTime } from '../../model/rfc3339.js';

/** Key ids in console paths: longer than an id can be → 404 `Key not found`. */
const KEY_ID = { key_id: { notFound: API_ERRORS.keyNotFound } };

/**
 * Public view of a key (never the hash). `lastUsedMs`: when it was last used (epoch ms, as stored:
 * up to KEY_USE_FLUSH_MS behind), shown as `last_used_at` (ISO, or null for never).
 */
function keyView(
  k: KeyRecord,
  nowMs: number,
  keys: KeyService,
  lastUsedMs: number | undefined,
): Record<string, unknown> {
  return {
    key_id: k.key_id,
    name: k.name,
    display_prefix: k.display_prefix,
    permissions: k.permissions,
    allow_ips: k.allow_ips,
    expires_at: k.expires_at,
    revoked_at: k.revoked_at,
    state: keys.state(k, nowMs).ok ? 'active' : k.revoked_at ? 'revoked' : 'expired',
    per_minute: k.per_minute,
    per_hour: k.per_hour,
    created_at: k.created_at,
    rotated_from: k.rotated_from,
    last_used_at: lastUsedMs === undefined ? null : new Date(lastUsedMs).toISOString(),
  };
}

/**
 * Builds every console route (mounted under CONSOLE_PREFIX): sessions, audit, users, keys, and
 * `reads` (the fleet reads and admin changes of console/read-routes).
 */
export function consoleRoutes(s: ConsoleServices, reads: readonly Route[] = []): Route[] {
  const { users, keys, now, audit } = s;
  type Authed = (
    req: ApiRequest,
    session: SessionRecord,
    orgId: string,
    body: Record<string, unknown>,
    params: Record<string, string>,
  ) => ApiResponse | Promise<ApiResponse>;

  /** Session → body → organization context (required) → admin or owner (spec §7 key-admin rows) → CSRF token. */
  const guarded = (handler: Authed) =>
    guard(users, keys.prefix, now, { minimum: 'admin', orgContext: 'required', extra: s.csrf.check }, (c) =>
      handler(c.req, c.session, c.orgId, c.body, c.params),
    );

  const keyOf = async (orgId: string, keyId: string): Promise<KeyRecord | undefined> => {
    const k = await keys.find(keyId);
    return k && k.org_id === orgId ? k : undefined;
  };

  return [
    ...sessionRoutes(s),
    ...auditRoutes(s),
    ...userRoutes(s),
    {
      method: 'GET',
      template: '/keys',
      permission: null,
      handle: guarded(async (_req, _s, orgId) => {
        const list = await keys.list(orgId);
        const used = await keys.lastUsed(list.map((k) => k.key_id));
        return okPlain({ keys: list.map((k) => keyView(k, now(), keys, used.get(k.key_id))) });
      }),
    },
    {
      method: 'POST',
      template: '/keys',
      permission: null,
      handle: guarded(async (_req, session, orgId, body) => {
        const perms = body['permissions'];
        if (
          perms !== undefined &&
          (!Array.isArray(perms) || perms.some((p) => !ALL_PERMISSIONS.includes(p as Permission)))
        ) {
          return fail(API_ERRORS.invalidBody, {
            detail: [{ path: '/permissions', message: `must be an array of ${ALL_PERMISSIONS.join(', ')}` }],
          });
        }
        const expires = body['expires_at'];
        const expiresMs = typeof expires === 'string' ? parseDateTime(expires) : null;
        if (expires !== undefined && expiresMs === null)
          return fail(API_ERRORS.invalidBody, { detail: [{ path: '/expires_at', message: DATE_TIME_RULE }] });
        const issued = await keys.createKey(orgId, {
          name: typeof body['name'] === 'string' ? body['name'] : 'console',
          ...(perms ? { permissions: perms as Permission[] } : {}),
          expiresAt: expiresMs === null ? null : new Date(expiresMs).toISOString(),
        });
        await audit.record(orgId, userActor(session.user_id), 'key.create', issued.record.key_id, issued.record.name);
        return okPlain(
          {
            ...keyView(issued.record, now(), keys, undefined),
            api_key: issued.api_key,
            signing_secret: issued.signing_secret,
          },
          201,
        );
      }),
    },
    {
      method: 'POST',
      template: '/keys/{key_id}/rotate',
      permission: null,
      params: KEY_ID,
      handle: guarded(async (_req, session, orgId, body, params) => {
        const key = await keyOf(orgId, params['key_id']!);
        if (!key) return fail(API_ERRORS.keyNotFound);
        if (!keys.state(key, now()).ok) return fail(API_ERRORS.keyCannotRotate);
        const overlap =
          typeof body['overlap_seconds'] === 'number' && body['overlap_seconds'] >= 0 ? body['overlap_seconds'] : 0;
        const issued = await keys.rotate(key.key_id, overlap * 1000, now());
        await audit.record(
          orgId,
          userActor(session.user_id),
          'key.rotate',
          issued.record.key_id,
          `rotated from ${key.key_id}, overlap ${overlap} s`,
        );
        return okPlain(
          {
            ...keyView(issued.record, now(), keys, undefined),
            api_key: issued.api_key,
            signing_secret: issued.signing_secret,
          },
          201,
        );
      }),
    },
    ...(['POST', 'DELETE'] as const).map((method): Route => ({
      method,
      template: method === 'POST' ? '/keys/{key_id}/revoke' : '/keys/{key_id}',
      permission: null,
      params: KEY_ID,
      handle: guarded(async (_req, session, orgId, _body, params) => {
        const key = await keyOf(orgId, params['key_id']!);
        if (!key) return fail(API_ERRORS.keyNotFound);
        if (key.revoked_at !== null) return fail(API_ERRORS.keyAlreadyRevoked);
        const revoked = await keys.revoke(key.key_id);
        await audit.record(orgId, userActor(session.user_id), 'key.revoke', key.key_id);
        const used = await keys.lastUsed([key.key_id]);
        return okPlain(keyView(revoked, now(), keys, used.get(key.key_id)));
      }),
    })),
    ...reads, // the fleet reads and webhook, waiver and settings changes (console/read-routes, issue 18)
  ];
}
