/**
 * @module server/routes/waivers: `/waivers` (issue 17 "Waivers"; permission `governance:manage`):
 * create, list, get (with the audit log) and revoke. A waiver's creation or revocation re-evaluates
 * its scenario at once (`reevaluation_id`), so the score and the rollup follow without waiting for
 * the next evaluation; its expiry does the same by the service clock (actors/waivers/waiver-clock).
 */
import { randomBytes } from 'node:crypto';
import type { WaiverRecord } from '../../model/records.js';
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';
import type { RouteDeps } from './deps.js';
import type { FieldError } from '../../api/field-error.js';
import { POLICY_BY_CODE } from '../../engine/index.js';
import { reevaluateScenario } from '../../actors/waivers/reevaluate.js';
import { WAIVER_NOTICE_MS } from '../../actors/waivers/waiver-clock.js';
import { waiverView } from '../../api/views/waiver.js';
import { parseJsonBody } from '../../api/requests.js';
import { API_ERRORS } from '../errors.js';
import { fail, ok } from '../http/envelope.js';
import { MAX_ID_LENGTH } from '../router.js';
import { schemaRef } from '../openapi/components.js';
import { publicAnswer, refuse, type Outcome } from './outcome.js';
import { DATE_TIME_RULE, parseDateTime } from '../../model/rfc3339.js';

/** Unrevoked, unexpired waivers per organization. */
export const MAX_ACTIVE_WAIVERS = 1000;
/** The latest `expires_at` a waiver may have: one year after its creation (issue 17). */
export const MAX_WAIVER_MS = 366 * 86_400_000;
const MANAGE = 'governance:manage' as const;
const WAIVER_ID = { id: { notFound: API_ERRORS.waiverNotFound, description: 'Waiver id' } };

/** `POST /waivers`. */
export const CREATE_WAIVER: Endpoint = {
  method: 'POST',
  template: '/waivers',
  permission: MANAGE,
  openapi: {
    operationId: 'createWaiver',
    tags: ['governance'],
    summary: 'Accept the risk of a policy on a scenario until a date',
    description:
      'The waived findings stay in the results, marked `waived`, and leave the score, the badges, the rollup and `gov_violations_total`. The scenario is re-evaluated at once (`reevaluation_id`), and again when the waiver expires.',
    requestBody: schemaRef('WaiverCreate'),
    success: { status: 201, data: 'Waiver', description: 'Created, with `reevaluation_id`' },
    errors: {
      403: 'Authentication rows, or `Key lacks governance:manage permission`',
      404: '`Scenario not found`',
      422: '`Invalid request body` (fields, unknown policy, expiry in the past or more than a year ahead, the limit of active waivers)',
    },
  },
};

/** `GET /waivers`. */
export const LIST_WAIVERS: Endpoint = {
  method: 'GET',
  template: '/waivers',
  permission: MANAGE,
  openapi: {
    operationId: 'listWaivers',
    tags: ['governance'],
    summary: 'Waivers of the organization, newest first (`scenario_id`, `limit`, `after` query parameters)',
    success: { status: 200, data: 'WaiverList', description: 'Waivers (active, expired and revoked)' },
    errors: { 422: '`Invalid request body` (a bad query parameter)' },
  },
};

/** `GET /waivers/{id}`. */
export const GET_WAIVER: Endpoint = {
  method: 'GET',
  template: '/waivers/{id}',
  permission: MANAGE,
  params: WAIVER_ID,
  openapi: {
    operationId: 'getWaiver',
    tags: ['governance'],
    summary: 'One waiver with its audit log',
    success: { status: 200, data: 'Waiver', description: 'Waiver, with `audit`' },
    errors: { 404: '`Waiver not found`' },
  },
};

/** `DELETE /waivers/{id}`. */
export const REVOKE_WAIVER: Endpoint = {
  method: 'DELETE',
  template: '/waivers/{id}',
  permission: MANAGE,
  params: WAIVER_ID,
  openapi: {
    operationId: 'revokeWaiver',
    tags: ['governance'],
    summary: 'Revoke a waiver (kept for audit); its scenario is re-evaluated',
    success: { status: 200, data: 'Waiver', description: 'Revoked, with `reevaluation_id`' },
    errors: { 404: '`Waiver not found`' },
  },
};

/** The waiver endpoints, in the order of the document. */
export const WAIVER_ENDPOINTS: readonly Endpoint[] = [CREATE_WAIVER, LIST_WAIVERS, GET_WAIVER, REVOKE_WAIVER];

/** Who made a change through the API: the key's id. */
export const actorOf = (keyId: string): string => `key:${keyId}`;
/** Who made a change in the console: the signed-in user's id (issue 18). */
export const userActorOf = (userId: string): string => `user:${userId}`;

const CODE = /^(?:[A-Z]{2,5}-\d{1,4}|ORG-\d{1,6})$/;
const FINGERPRINT = /^[A-Za-z0-9:_-]{1,128}$/;

/** The fields of a waiver its creator gives. */
type WaiverBody = Pick<
  WaiverRecord,
  'scenario_id' | 'policy' | 'fingerprint' | 'module_id' | 'reason' | 'approver' | 'expires_at'
>;

/** Checks a `POST /waivers` body by hand (the expiry bound needs the clock); field errors as JSON Pointers. */
function checkBody(
  value: unknown,
  nowMs: number,
): { ok: true; body: WaiverBody } | { ok: false; detail: FieldError[] } {
  const detail: FieldError[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, detail: [{ path: '/', message: 'must be an object' }] };
  const b = value as Record<string, unknown>;
  const known = new Set(['scenario_id', 'policy', 'fingerprint', 'module_id', 'reason', 'approver', 'expires_at']);
  for (const k of Object.keys(b)) if (!known.has(k)) detail.push({ path: `/${k}`, message: 'is not a known field' });
  const str = (k: string, max: number, required: boolean, pattern?: RegExp): string | null => {
    const v = b[k];
    if (v === undefined || v === null) {
      if (required) detail.push({ path: `/${k}`, message: 'is required' });
      return null;
    }
    if (typeof v !== 'string' || v.trim().length === 0 || v.length > max || /\p{Cc}/u.test(v)) {
      detail.push({
        path: `/${k}`,
        message: `must be a non-empty string of at most ${max} characters without control characters`,
      });
      return null;
    }
    if (pattern && !pattern.test(v)) detail.push({ path: `/${k}`, message: `must match ${pattern.source}` });
    return v;
  };
  const scenarioId = str('scenario_id', MAX_ID_LENGTH, true);
  const policy = str('policy', 16, true, CODE);
  const fingerprint = str('fingerprint', 128, false, FINGERPRINT);
  const moduleId = str('module_id', 64, false);
  const reason = str('reason', 1000, true);
  const approver = str('approver', 200, false);
  const expires = str('expires_at', 40, true);
  let expiresAt = '';
  if (expires !== null) {
    const ms = parseDateTime(expires);
    if (ms === null) detail.push({ path: '/expires_at', message: DATE_TIME_RULE });
    else if (ms <= nowMs) detail.push({ path: '/expires_at', message: 'must be in the future' });
    else if (ms > nowMs + MAX_WAIVER_MS)
      detail.push({ path: '/expires_at', message: 'must be at most one year ahead' });
    else expiresAt = new Date(ms).toISOString();
  }
  if (detail.length > 0) return { ok: false, detail };
  return {
    ok: true,
    body: {
      scenario_id: scenarioId!,
      policy: policy!,
      fingerprint,
      module_id: moduleId,
      reason: reason!,
      approver,
      expires_at: expiresAt,
    },
  };
}

const reevaluate = async (deps: RouteDeps, orgId: string, scenarioId: string): Promise<string | null> =>
  (await reevaluateScenario(deps.store, deps.evaluations, orgId, scenarioId))?.evaluation_id ?? null;

/** `POST /waivers` for the organization by `actor` (`key:<id>` or `user:<id>`): stores it and re-evaluates its scenario. */
export async function createWaiver(deps: RouteDeps, orgId: string, actor: string, body: Buffer): Promise<Outcome> {
  const parsed = parseJsonBody(body);
  if (!parsed.ok) return refuse(fail(API_ERRORS.invalidBody, { detail: parsed.detail }));
  const nowMs = deps.now();
  const checked = checkBody(parsed.value, nowMs);
  if (!checked.ok) return refuse(fail(API_ERRORS.invalidBody, { detail: checked.detail }));
  const b = checked.body;
  const known =
    POLICY_BY_CODE.has(b.policy) ||
    (b.policy.startsWith('ORG-') && (await deps.store.governance.getRule(orgId, b.policy)) !== undefined);
  if (!known)
    return refuse(
      fail(API_ERRORS.invalidBody, { detail: [{ path: '/policy', message: `unknown policy ${b.policy}` }] }),
    );
  if (!(await deps.store.scenarios.get(orgId, b.scenario_id)))
    return refuse(fail(API_ERRORS.scenarioNotFound, { detail: b.scenario_id }));
  const at = new Date(nowMs).toISOString();
  const record: WaiverRecord = {
    waiver_id: `wvr_${nowMs.toString(36)}${randomBytes(6).toString('hex')}`,
    org_id: orgId,
    ...b,
    created_at: at,
    created_by: actor,
    status: 'active',
    revoked_at: null,
    audit: [{ at, actor, action: 'created', detail: b.reason }],
  };
  if (!(await deps.store.governance.createWaiver(record, WAIVER_NOTICE_MS, MAX_ACTIVE_WAIVERS, nowMs)))
    return refuse(
      fail(API_ERRORS.invalidBody, {
        detail: [{ path: '/', message: `at most ${MAX_ACTIVE_WAIVERS} active waivers per organization` }],
      }),
    );
  await deps.audit.record(orgId, actor, 'waiver.create', record.waiver_id, `${b.policy} on ${b.scenario_id}`);
  const reevaluationId = await reevaluate(deps, orgId, b.scenario_id);
  return { data: { ...waiverView(record, at, true), reevaluation_id: reevaluationId }, status: 201 };
}

/** `GET /waivers` for the organization; `query` the raw query string (`scenario_id`, `limit`, `after`). */
export async function listWaivers(deps: RouteDeps, orgId: string, query: string): Promise<Outcome> {
  const q = new URLSearchParams(query);
  const limitText = q.get('limit') ?? '50';
  const limit = Number(limitText);
  const detail: FieldError[] = [];
  if (!/^\d{1,3}$/.test(limitText) || limit < 1 || limit > 200)
    detail.push({ path: '/limit', message: 'must be an integer from 1 to 200' });
  const scenarioId = q.get('scenario_id') ?? undefined;
  if (scenarioId !== undefined && (scenarioId.length === 0 || scenarioId.length > MAX_ID_LENGTH))
    detail.push({ path: '/scenario_id', message: `must be 1 to ${MAX_ID_LENGTH} characters` });
  const after = q.get('after') ?? undefined;
  if (after !== undefined && !/^wvr_[a-z0-9]{1,40}$/.test(after))
    detail.push({ path: '/after', message: 'must be a waiver id' });
  if (detail.length > 0) return refuse(fail(API_ERRORS.invalidBody, { detail }));
  const list = await deps.store.governance.listWaivers(orgId, {
    limit,
    ...(scenarioId !== undefined ? { scenarioId } : {}),
    ...(after !== undefined ? { after } : {}),
  });
  const at = new Date(deps.now()).toISOString();
  return {
    data: {
      waivers: list.map((w) => waiverView(w, at, false)),
      next_after: list.length === limit ? list.at(-1)!.waiver_id : null,
    },
  };
}

/** `DELETE /waivers/{id}` for the organization by `actor`: revokes it (kept for audit) and re-evaluates its scenario. */
export async function revokeWaiver(deps: RouteDeps, orgId: string, actor: string, id: string): Promise<Outcome> {
  const at = new Date(deps.now()).toISOString();
  const before = await deps.store.governance.getWaiver(orgId, id);
  if (!before) return refuse(fail(API_ERRORS.waiverNotFound));
  if (before.status === 'revoked') return { data: { ...waiverView(before, at, true), reevaluation_id: null } };
  const w = await deps.store.governance.revokeWaiver(orgId, before.waiver_id, {
    at,
    actor,
    action: 'revoked',
    detail: null,
  });
  if (!w) return refuse(fail(API_ERRORS.waiverNotFound));
  await deps.audit.record(orgId, actor, 'waiver.revoke', w.waiver_id, `${w.policy} on ${w.scenario_id}`);
  // An expired waiver no longer counts: revoking it changes no result.
  const reevaluationId = before.expires_at > at ? await reevaluate(deps, orgId, w.scenario_id) : null;
  return { data: { ...waiverView(w, at, true), reevaluation_id: reevaluationId } };
}

/** The four waiver routes. */
export function waiverRoutes(deps: RouteDeps): Route[] {
  const iso = () => new Date(deps.now()).toISOString();
  return [
    {
      ...CREATE_WAIVER,
      async handle(req, ctx) {
        const key = ctx.key!;
        return publicAnswer(await createWaiver(deps, key.org_id, actorOf(key.key_id), req.body), ctx.watermark!);
      },
    },
    {
      ...LIST_WAIVERS,
      async handle(req, ctx) {
        return publicAnswer(await listWaivers(deps, ctx.key!.org_id, req.query), ctx.watermark!);
      },
    },
    {
      ...GET_WAIVER,
      async handle(_req, ctx) {
        const w = await deps.store.governance.getWaiver(ctx.key!.org_id, ctx.params['id']!);
        return w ? ok(waiverView(w, iso(), true), ctx.watermark!) : fail(API_ERRORS.waiverNotFound);
      },
    },
    {
      ...REVOKE_WAIVER,
      async handle(_req, ctx) {
        const key = ctx.key!;
        const o = await revokeWaiver(deps, key.org_id, actorOf(key.key_id), ctx.params['id']!);
        return publicAnswer(o, ctx.watermark!);
      },
    },
  ];
}
