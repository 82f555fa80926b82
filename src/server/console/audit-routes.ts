/**
 * @module server/console/audit-routes: `GET /api/v1/audit?limit=&cursor=` (every role;
 * docs/console-api.md): the organization's audit log newest first, paged by an opaque cursor.
 */
import type { Route } from '../router.js';
import type { ConsoleServices } from './services.js';
import type { FieldError } from '../errors.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';
import { guard } from './guard.js';
import { okPlain } from './reply.js';
import { LIST_AUDIT } from './read-endpoints.js';

/** Entries per page: default and most. */
export const AUDIT_PAGE = { default: 50, max: 200 } as const;

/** The cursor of the page after the entry numbered `seq`: opaque to clients (base64url of `s<seq>`). */
const cursorOf = (seq: number): string => Buffer.from(`s${seq}`).toString('base64url');
/** The sequence a cursor continues below, or null when it is not one of ours. */
function seqOf(cursor: string): number | null {
  const m = /^s([1-9]\d{0,14})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : null;
}

/** The audit route. */
export function auditRoutes(s: ConsoleServices): Route[] {
  return [
    {
      method: LIST_AUDIT.method,
      template: LIST_AUDIT.template,
      permission: null,
      handle: guard(s.users, s.keys.prefix, s.now, { minimum: 'member', orgContext: 'session' }, async (call) => {
        const detail: FieldError[] = [];
        const limitText = call.query.get('limit') ?? String(AUDIT_PAGE.default);
        const limit = Number(limitText);
        if (!/^\d{1,3}$/.test(limitText) || limit < 1 || limit > AUDIT_PAGE.max)
          detail.push({ path: '/limit', message: `must be an integer from 1 to ${AUDIT_PAGE.max}` });
        const cursor = call.query.get('cursor');
        const before = cursor === null ? undefined : seqOf(cursor);
        if (before === null) detail.push({ path: '/cursor', message: 'must be a next_cursor of this listing' });
        if (detail.length > 0) return fail(API_ERRORS.invalidBody, { detail });
        const page = await s.audit.list(call.orgId, limit, before ?? undefined);
        const last = page.at(-1);
        return okPlain({
          entries: page.map((e) => ({
            at: e.at,
            actor: e.actor,
            action: e.action,
            target: e.target,
            detail: e.detail,
          })),
          next_cursor: page.length === limit && last && last.seq > 1 ? cursorOf(last.seq) : null,
        });
      }),
    },
  ];
}
