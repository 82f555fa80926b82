/**
 * @module server/console/guard: the one gate of every session-authenticated console route
 * (docs/console-api.md): the session (cookie `gov_session` or `Authorization: Bearer
 * <prefix>_sess_…`), the JSON body, the organization context (the session's own when none is
 * given) and the role the route needs.
 */
import type { SessionRecord, UserRole } from '../../model/records.js';
import type { ApiRequest, ApiResponse } from '../http/types.js';
import type { Users } from './users.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';
import { parseJsonBody } from '../../api/requests.js';

/** What a guarded handler gets. */
export interface ConsoleCall {
  readonly req: ApiRequest;
  readonly session: SessionRecord;
  /** The session's token (the CSRF token and audit need it). */
  readonly token: string;
  /** True when the session came from the cookie (a browser: CSRF rules apply to changes). */
  readonly viaCookie: boolean;
  readonly orgId: string;
  readonly body: Record<string, unknown>;
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
}

/** A guarded handler. */
export type ConsoleHandler = (call: ConsoleCall) => ApiResponse | Promise<ApiResponse>;

/** Role order: a route needing `admin` admits admins and owners. */
const RANK: Readonly<Record<UserRole, number>> = { member: 0, admin: 1, owner: 2 };

/** The session token of a request and where it came from, or null. */
export function sessionToken(req: ApiRequest, prefix: string): { token: string; viaCookie: boolean } | null {
  const auth = req.headers['authorization'];
  if (auth && /^Bearer\s+/i.test(auth)) {
    const t = auth.replace(/^Bearer\s+/i, '').trim();
    if (t.startsWith(`${prefix}_sess_`)) return { token: t, viaCookie: false };
  }
  const cookie = req.headers['cookie'];
  const m = cookie ? /(?:^|;\s*)gov_session=([^;]+)/.exec(cookie) : null;
  return m ? { token: m[1]!, viaCookie: true } : null;
}

/** What a route asks of the guard. */
export interface GuardOptions {
  /** The least role admitted. */
  readonly minimum: UserRole;
  /**
   * `required`: the caller must name the organization (`org_id` in the body or query, or
   * `X-Organization-Id`), else 400 `Organization context required` (spec §7: the key-admin
   * endpoints). `session`: the session's organization unless another is named (the console's reads).
   */
  readonly orgContext: 'required' | 'session';
  /** Runs once the call is known (e.g. the CSRF check); a response refuses it. */
  readonly extra?: (call: ConsoleCall) => ApiResponse | null;
}

/**
 * Wraps `handler` with the console's checks, in order: a live session (401 `Session authentication
 * required`), a JSON object body when there is one (422), the organization context (another
 * organization than the session's is 403 `Not authorized`), the role (403 `Not authorized`), then
 * `options.extra`.
 */
export function guard(
  users: Users,
  prefix: string,
  now: () => number,
  options: GuardOptions,
  handler: ConsoleHandler,
): (req: ApiRequest, ctx: { params: Record<string, string> }) => Promise<ApiResponse> {
  return async (req, ctx) => {
    const found = sessionToken(req, prefix);
    const session = found ? await users.session(found.token, now()) : undefined;
    if (!found || !session) return fail(API_ERRORS.sessionRequired);
    let body: Record<string, unknown> = {};
    if (req.body.length > 0) {
      const parsed = parseJsonBody(req.body);
      if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value))
        return fail(API_ERRORS.invalidBody, {
          detail: parsed.ok ? [{ path: '/', message: 'must be an object' }] : parsed.detail,
        });
      body = parsed.value as Record<string, unknown>;
    }
    const query = new URLSearchParams(req.query);
    const named =
      (typeof body['org_id'] === 'string' ? body['org_id'] : null) ??
      query.get('org_id') ??
      req.headers['x-organization-id'] ??
      null;
    if (named === null && options.orgContext === 'required')
      return fail(API_ERRORS.orgContextRequired, {
        detail: 'Pass org_id in the body, the query string or X-Organization-Id',
      });
    const orgId = named ?? session.org_id;
    if (orgId !== session.org_id || RANK[session.role] < RANK[options.minimum]) return fail(API_ERRORS.notAuthorized);
    const call: ConsoleCall = {
      req,
      session,
      token: found.token,
      viaCookie: found.viaCookie,
      orgId,
      body,
      params: ctx.params,
      query,
    };
    return options.extra?.(call) ?? handler(call);
  };
}
