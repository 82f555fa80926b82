/**
 * @module server/console/session-routes: the console's sessions (docs/console-api.md "Sessions and
 * their protection"): sign-in with throttling and the CSRF token, the SPA's reload, sign-out.
 *
 * POST /api/v1/session { email, password } → { session_token, expires_at, csrf_token, user } + cookie
 * GET /api/v1/session                      → the same without session_token
 * DELETE /api/v1/session                   → { logged_out: true }, cookie cleared
 */
import type { SessionRecord, UserRecord } from '../../model/records.js';
import type { ApiRequest } from '../http/types.js';
import type { Route } from '../router.js';
import type { ConsoleServices } from './services.js';
import type { SignInAdmission } from './sign-in-throttle.js';
import type { LoginResult } from './users.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';
import { parseJsonBody } from '../../api/requests.js';
import { inCidrs } from '../pipeline/client-address.js';
import { userActor } from '../audit.js';
import { guard } from './guard.js';
import { okPlain } from './reply.js';

/** The session cookie's name and fixed attributes (scoped to the console API, never sent to scripts or other sites). */
const COOKIE = 'gov_session';
const ATTRIBUTES = 'Path=/api/v1; HttpOnly; SameSite=Strict';

/** What a session answer shows (the token only at sign-in). */
function sessionView(s: ConsoleServices, token: string, session: SessionRecord, user: UserRecord, withToken: boolean) {
  return {
    ...(withToken ? { session_token: token } : {}),
    expires_at: new Date(session.expires_at).toISOString(),
    csrf_token: s.csrf.tokenFor(token),
    user: { user_id: user.user_id, org_id: user.org_id, role: user.role, email: user.email },
  };
}

/** The locked answer: `429 Too many sign-in attempts` with `Retry-After` in seconds. */
const throttled = (retryAfterS: number) =>
  fail(API_ERRORS.signInThrottled, {
    detail: `Try again in ${retryAfterS} s`,
    headers: [['retry-after', String(retryAfterS)]],
  });

/** The session routes. */
export function sessionRoutes(s: ConsoleServices): Route[] {
  /** TLS as the client saw it: `X-Forwarded-Proto: https` counts only from a trusted proxy (the socket itself is plain). */
  const secure = (req: ApiRequest): boolean =>
    s.config.consoleSecureCookie ||
    (inCidrs(req.remoteAddress, s.trustedProxies) &&
      req.headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase() === 'https');
  const cookie = (req: ApiRequest, value: string, maxAgeS: number): readonly [string, string] => [
    'set-cookie',
    `${COOKIE}=${value}; ${ATTRIBUTES}; Max-Age=${maxAgeS}${secure(req) ? '; Secure' : ''}`,
  ];
  const member = { minimum: 'member', orgContext: 'session' } as const;

  return [
    {
      method: 'POST',
      template: '/session',
      permission: null,
      async handle(req, ctx) {
        const parsed = parseJsonBody(req.body);
        const b = parsed.ok ? (parsed.value as { email?: unknown; password?: unknown } | null) : null;
        if (!b || typeof b.email !== 'string' || typeof b.password !== 'string') {
          return fail(API_ERRORS.invalidBody, {
            detail: [{ path: '/email', message: 'email and password (strings) are required' }],
          });
        }
        const address = ctx.clientIp ?? req.remoteAddress;
        const nowMs = s.now();
        const release = s.hashing.tryEnter();
        if (!release) {
          // Every verification slot of this node is taken: refuse now rather than queue (issue 31).
          const locked = await s.throttle.retryAfterS(b.email, address, nowMs);
          return locked !== null
            ? throttled(locked)
            : fail(API_ERRORS.signInBusy, { detail: 'Try again in 1 s', headers: [['retry-after', '1']] });
        }
        let admission: SignInAdmission;
        let login: LoginResult;
        try {
          // Counted before the password is verified, so concurrent attempts cannot exceed the limits.
          admission = await s.throttle.attempt(b.email, address, nowMs);
          if (!admission.admitted) return throttled(admission.retryAfterS);
          login = await s.users.login(b.email, b.password, nowMs);
        } finally {
          release();
        }
        // A verification that threw leaves its attempt counted (never a free guess).
        await s.throttle.settle(admission.ticket, login.ok);
        if (!login.ok) {
          // An unknown e-mail belongs to no organization: counted above, not audited.
          if (login.user)
            await s.audit.record(
              login.user.org_id,
              userActor(login.user.user_id),
              'session.sign_in_failed',
              login.user.user_id,
              `from ${address}`,
            );
          return fail(API_ERRORS.invalidCredentials);
        }
        await s.audit.record(
          login.user.org_id,
          userActor(login.user.user_id),
          'session.sign_in',
          login.user.user_id,
          `from ${address}`,
        );
        const maxAge = Math.floor((login.session.expires_at - nowMs) / 1000);
        return {
          ...okPlain(sessionView(s, login.token, login.session, login.user, true)),
          headers: [cookie(req, login.token, maxAge)],
        };
      },
    },
    {
      method: 'GET',
      template: '/session',
      permission: null,
      handle: guard(s.users, s.keys.prefix, s.now, member, async (call) => {
        const user = await s.users.user(call.session.user_id);
        if (!user) return fail(API_ERRORS.sessionRequired);
        return okPlain(sessionView(s, call.token, call.session, user, false));
      }),
    },
    {
      method: 'DELETE',
      template: '/session',
      permission: null,
      handle: guard(s.users, s.keys.prefix, s.now, { ...member, extra: s.csrf.check }, async (call) => {
        await s.users.logout(call.token);
        await s.audit.record(
          call.session.org_id,
          userActor(call.session.user_id),
          'session.sign_out',
          call.session.user_id,
        );
        return { ...okPlain({ logged_out: true }), headers: [cookie(call.req, '', 0)] };
      }),
    },
  ];
}
