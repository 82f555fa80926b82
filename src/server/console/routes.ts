/**
 * @module server/console/routes: the console's session-authenticated API (spec §4 "API-key
 * administration ... in the console through session-authenticated /api/v1/keys/*, for admin/owner
 * roles"; error rows of spec §7 marked "key-admin").
 *
 * POST /api/v1/session { email, password } → { session_token, expires_at, user }
 * DELETE /api/v1/session
 * GET /api/v1/keys?org_id=…                      list
 * POST /api/v1/keys { org_id, name?, permissions?, expires_at? }   create (clear key and secret shown once)
 * POST /api/v1/keys/{key_id}/rotate { org_id, overlap_seconds? }
 * POST /api/v1/keys/{key_id}/revoke { org_id }   (also DELETE /api/v1/keys/{key_id}?org_id=…)
 */
import type { KeyRecord, Permission, SessionRecord } from '../../model/records.js';
import type { KeyService } from '../auth/keys.js';
import type { ApiRequest, ApiResponse } from '../http/types.js';
import type { Route } from '../router.js';
import type { Users } from './users.js';
import { ALL_PERMISSIONS } from '../../model/records.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';
import { parseJsonBody } from '../../api/requests.js';
import { guard, sessionToken } from './guard.js';

/** Key ids in console paths: longer than an id can be → 404 `Key not found`. */
const KEY_ID = { key_id: { notFound: API_ERRORS.keyNotFound } };

const okPlain = (data: unknown, status = 200): ApiResponse => ({ status, body: JSON.stringify({ ok: true, data }) });

/** Public view of a key (never the hash). */
function keyView(k: KeyRecord, nowMs: number, keys: KeyService): Record<string, unknown> {
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
  };
}

/** Builds the console routes. */
export function consoleRoutes(
  users: Users,
  keys: KeyService,
  now: () => number,
  reads: readonly Route[] = [],
): Route[] {
  type Authed = (
    req: ApiRequest,
    session: SessionRecord,
    orgId: string,
    body: Record<string, unknown>,
    params: Record<string, string>,
  ) => ApiResponse | Promise<ApiResponse>;

  /** Session → body → organization context (the session's by default) → admin or owner (spec §7 key-admin rows). */
  const guarded = (handler: Authed) =>
    guard(users, keys.prefix, now, { minimum: 'admin', orgContext: 'required' }, (c) =>
      handler(c.req, c.session, c.orgId, c.body, c.params),
    );

  const keyOf = async (orgId: string, keyId: string): Promise<KeyRecord | undefined> => {
    const k = await keys.find(keyId);
    return k && k.org_id === orgId ? k : undefined;
  };

  return [
    {
      method: 'POST',
      template: '/session',
      permission: null,
      async handle(req) {
        const parsed = parseJsonBody(req.body);
        const b = parsed.ok ? (parsed.value as { email?: unknown; password?: unknown }) : null;
        if (!b || typeof b.email !== 'string' || typeof b.password !== 'string') {
          return fail(API_ERRORS.invalidBody, {
            detail: [{ path: '/email', message: 'email and password (strings) are required' }],
          });
        }
        const login = await users.login(b.email, b.password, now());
        if (!login) return fail(API_ERRORS.invalidCredentials);
        const res = okPlain({
          session_token: login.token,
          expires_at: new Date(login.session.expires_at).toISOString(),
          user: {
            user_id: login.user.user_id,
            org_id: login.user.org_id,
            role: login.user.role,
            email: login.user.email,
          },
        });
        return {
          ...res,
          headers: [
            [
              'set-cookie',
              `gov_session=${login.token}; Path=/api/v1; HttpOnly; Secure; SameSite=Strict; Max-Age=${Math.floor((login.session.expires_at - now()) / 1000)}`,
            ],
          ],
        };
      },
    },
    {
      method: 'DELETE',
      template: '/session',
      permission: null,
      async handle(req) {
        const found = sessionToken(req, keys.prefix);
        if (!found || !(await users.session(found.token, now()))) return fail(API_ERRORS.sessionRequired);
        await users.logout(found.token);
        return okPlain({ logged_out: true });
      },
    },
    {
      method: 'GET',
      template: '/keys',
      permission: null,
      handle: guarded(async (_req, _s, orgId) =>
        okPlain({ keys: (await keys.list(orgId)).map((k) => keyView(k, now(), keys)) }),
      ),
    },
    {
      method: 'POST',
      template: '/keys',
      permission: null,
      handle: guarded(async (_req, _s, orgId, body) => {
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
        if (expires !== undefined && (typeof expires !== 'string' || Number.isNaN(Date.parse(expires))))
          return fail(API_ERRORS.invalidBody, {
            detail: [{ path: '/expires_at', message: 'must be an ISO 8601 time' }],
          });
        const issued = await keys.createKey(orgId, {
          name: typeof body['name'] === 'string' ? body['name'] : 'console',
          ...(perms ? { permissions: perms as Permission[] } : {}),
          expiresAt: typeof expires === 'string' ? new Date(expires).toISOString() : null,
        });
        return okPlain(
          { ...keyView(issued.record, now(), keys), api_key: issued.api_key, signing_secret: issued.signing_secret },
          201,
        );
      }),
    },
    {
      method: 'POST',
      template: '/keys/{key_id}/rotate',
      permission: null,
      params: KEY_ID,
      handle: guarded(async (_req, _s, orgId, body, params) => {
        const key = await keyOf(orgId, params['key_id']!);
        if (!key) return fail(API_ERRORS.keyNotFound);
        if (!keys.state(key, now()).ok) return fail(API_ERRORS.keyCannotRotate);
        const overlap =
          typeof body['overlap_seconds'] === 'number' && body['overlap_seconds'] >= 0 ? body['overlap_seconds'] : 0;
        const issued = await keys.rotate(key.key_id, overlap * 1000, now());
        return okPlain(
          { ...keyView(issued.record, now(), keys), api_key: issued.api_key, signing_secret: issued.signing_secret },
          201,
        );
      }),
    },
    ...(['POST', 'DELETE'] as const).map((method): Route => ({
      method,
      template: method === 'POST' ? '/keys/{key_id}/revoke' : '/keys/{key_id}',
      permission: null,
      params: KEY_ID,
      handle: guarded(async (_req, _s, orgId, _body, params) => {
        const key = await keyOf(orgId, params['key_id']!);
        if (!key) return fail(API_ERRORS.keyNotFound);
        if (key.revoked_at !== null) return fail(API_ERRORS.keyAlreadyRevoked);
        return okPlain(keyView(await keys.revoke(key.key_id), now(), keys));
      }),
    })),
    ...reads, // the fleet reads and webhook, waiver and settings changes (console/read-routes, issue 18)
  ];
}
