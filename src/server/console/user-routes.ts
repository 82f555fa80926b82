/**
 * @module server/console/user-routes: the organization's console accounts (owner only;
 * docs/console-api.md "Changes").
 *
 * GET /api/v1/users                                → { users[] } (never a password hash)
 * POST /api/v1/users { email, role, password? }    → 201 the user, with `password` when generated (shown once)
 */
import { randomBytes } from 'node:crypto';
import type { UserRecord, UserRole } from '../../model/records.js';
import type { Route } from '../router.js';
import type { ConsoleServices } from './services.js';
import type { FieldError } from '../errors.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';
import { userActor } from '../audit.js';
import { guard } from './guard.js';
import { okPlain } from './reply.js';
import { UserError } from './users.js';
import { CREATE_USER, LIST_USERS } from './read-endpoints.js';
import { passwordProblem } from './password-policy.js';

const ROLES: readonly UserRole[] = ['owner', 'admin', 'member'];
/** A plausible address (one `@`, a dot in the domain, no spaces), at most 254 characters (RFC 5321 §4.5.3.1.3). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An account as the console shows it. */
const userView = (u: UserRecord) => ({
  user_id: u.user_id,
  org_id: u.org_id,
  email: u.email,
  role: u.role,
  created_at: u.created_at,
});

/** The user routes. */
export function userRoutes(s: ConsoleServices): Route[] {
  const owner = { minimum: 'owner', orgContext: 'session' } as const;
  return [
    {
      method: LIST_USERS.method,
      template: LIST_USERS.template,
      permission: null,
      handle: guard(s.users, s.keys.prefix, s.now, owner, async (call) =>
        okPlain({ users: (await s.users.list(call.orgId)).map(userView) }),
      ),
    },
    {
      method: CREATE_USER.method,
      template: CREATE_USER.template,
      permission: null,
      handle: guard(s.users, s.keys.prefix, s.now, { ...owner, extra: s.csrf.check }, async (call) => {
        const { email, role, password } = call.body;
        const detail: FieldError[] = [];
        if (typeof email !== 'string' || email.length > 254 || !EMAIL.test(email.trim()))
          detail.push({ path: '/email', message: 'must be an e-mail address' });
        if (typeof role !== 'string' || !ROLES.includes(role as UserRole))
          detail.push({ path: '/role', message: `must be one of ${ROLES.join(', ')}` });
        const refused =
          password === undefined ? null : await passwordProblem(password, typeof email === 'string' ? email : '');
        if (refused) detail.push({ path: '/password', message: refused });
        if (detail.length > 0) return fail(API_ERRORS.invalidBody, { detail });
        const generated = password === undefined ? randomBytes(18).toString('base64url') : null;
        let user: UserRecord;
        try {
          user = await s.users.create(call.orgId, email as string, role as UserRole, generated ?? (password as string));
        } catch (error) {
          if (error instanceof UserError && error.code === 'user_exists')
            return fail(API_ERRORS.invalidBody, { detail: [{ path: '/email', message: 'is taken' }] });
          throw error;
        }
        await s.audit.record(
          call.orgId,
          userActor(call.session.user_id),
          'user.create',
          user.user_id,
          `${user.email} as ${user.role}`,
        );
        return okPlain({ ...userView(user), ...(generated ? { password: generated } : {}) }, 201);
      }),
    },
  ];
}
