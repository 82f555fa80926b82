/**
 * @module server/console/read-routes: the console's fleet reads and its admin changes of webhooks,
 * waivers and settings (docs/console-api.md "Reads" and "Changes"; issue 18), behind `guard` with
 * the session's organization. The changes run the public endpoints' own functions (routes/webhooks,
 * routes/waivers, routes/governance-settings), with the actor `user:<user_id>`.
 */
import type { WebhookDispatcher } from '../../actors/webhooks/dispatcher.js';
import type { FieldError } from '../../api/field-error.js';
import type { FleetQuery } from '../../store/fleet/repository.js';
import type { ApiResponse } from '../http/types.js';
import type { Route } from '../router.js';
import type { RouteDeps } from '../routes/deps.js';
import type { Users } from './users.js';
import type { ConsoleEndpoint } from './read-endpoints.js';
import type { ConsoleCall, ConsoleHandler } from './guard.js';
import { FLEET_BADGES, FLEET_SORTS, decodeCursor, type FleetBadge, type FleetSort } from '../../store/fleet/keys.js';
import { rollupView } from '../../api/views/rollup.js';
import { notEvaluatedView } from '../../api/views/scenario-results.js';
import { emptyRollup } from '../../store/rollup.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';
import { consoleAnswer, refuse, type Outcome } from '../routes/outcome.js';
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, redeliver } from '../routes/webhooks.js';
import { createWaiver, listWaivers, revokeWaiver, userActorOf } from '../routes/waivers.js';
import { getSettings, putSettings } from '../routes/governance-settings.js';
import { listRules } from '../routes/custom-rules.js';
import { guard } from './guard.js';
import * as E from './read-endpoints.js';

/** Days of `evaluations_by_day`. */
export const OVERVIEW_DAYS = 30;
const DAY_MS = 86_400_000;

/** The query of `GET /scenarios`, checked; field errors as JSON Pointers. */
export function scenarioQuery(
  query: URLSearchParams,
): { ok: true; query: FleetQuery } | { ok: false; detail: FieldError[] } {
  const detail: FieldError[] = [];
  const q = query.get('q') ?? '';
  if (q.length > 200 || /\p{Cc}/u.test(q))
    detail.push({ path: '/q', message: 'must be at most 200 characters without control characters' });
  const badge = query.get('badge') ?? '';
  if (badge !== '' && !(FLEET_BADGES as readonly string[]).includes(badge))
    detail.push({ path: '/badge', message: `must be one of ${FLEET_BADGES.join(', ')}` });
  const sort = query.get('sort') ?? 'name';
  if (!(FLEET_SORTS as readonly string[]).includes(sort))
    detail.push({ path: '/sort', message: `must be one of ${FLEET_SORTS.join(', ')}` });
  const order = query.get('order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc') detail.push({ path: '/order', message: 'must be asc or desc' });
  const limitText = query.get('limit') ?? '50';
  const limit = Number(limitText);
  if (!/^\d{1,3}$/.test(limitText) || limit < 1 || limit > 200)
    detail.push({ path: '/limit', message: 'must be an integer from 1 to 200' });
  const cursor = query.get('cursor');
  const after = cursor === null || cursor === '' ? undefined : decodeCursor(cursor);
  if (after === null) detail.push({ path: '/cursor', message: 'is not a cursor of this list' });
  if (detail.length > 0) return { ok: false, detail };
  return {
    ok: true,
    query: {
      sort: sort as FleetSort,
      order: order as 'asc' | 'desc',
      limit,
      ...(q !== '' ? { q } : {}),
      ...(badge !== '' ? { badge: badge as FleetBadge } : {}),
      ...(after !== undefined && after !== null ? { after } : {}),
    },
  };
}

/** The `YYYY-MM-DD` UTC days of the last `n` days up to the one of `nowMs`, oldest first. */
export function lastDays(nowMs: number, n: number): string[] {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return Array.from({ length: n }, (_, i) => new Date(today - (n - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** Builds the console's read and change routes (docs/console-api.md). */
export function consoleReadRoutes(
  users: Users,
  prefix: string,
  deps: RouteDeps,
  webhooks: WebhookDispatcher,
  /** The CSRF check of cookie-authenticated changes (console/csrf); it passes reads. */
  csrf: (call: ConsoleCall) => ApiResponse | null,
): Route[] {
  const route = (e: ConsoleEndpoint, handler: (c: Parameters<ConsoleHandler>[0]) => Promise<Outcome>): Route => ({
    method: e.method,
    template: e.template,
    permission: null,
    ...(e.params ? { params: e.params } : {}),
    handle: guard(
      users,
      prefix,
      deps.now,
      { minimum: e.role, orgContext: 'session', extra: csrf },
      async (c): Promise<ApiResponse> => consoleAnswer(await handler(c)),
    ),
  });
  const actor = (c: Parameters<ConsoleHandler>[0]) => userActorOf(c.session.user_id);

  return [
    route(E.OVERVIEW, async (c) => {
      const nowMs = deps.now();
      const [record, days] = await Promise.all([
        (async () => deps.store.results.rollup(c.orgId))(),
        (async () => deps.store.fleet.evaluationDays(c.orgId, lastDays(nowMs, OVERVIEW_DAYS)))(),
      ]);
      const rollup = record ?? emptyRollup(c.orgId, new Date(nowMs).toISOString());
      const b = rollup.badges ?? {};
      const badges = {
        critical: b.critical ?? 0,
        high: b.high ?? 0,
        medium: b.medium ?? 0,
        low: b.low ?? 0,
        info: b.info ?? 0,
        clean: b.clean ?? 0,
        ...(b.unknown ? { unknown: b.unknown } : {}),
        not_evaluated: Math.max(0, rollup.scenarios_total - rollup.scenarios_evaluated),
      };
      return { data: { rollup: rollupView(rollup), badges, evaluations_by_day: days } };
    }),
    route(E.LIST_SCENARIOS, async (c) => {
      const checked = scenarioQuery(c.query);
      if (!checked.ok) return refuse(fail(API_ERRORS.invalidBody, { detail: checked.detail }));
      const page = await deps.store.fleet.page(c.orgId, checked.query);
      return {
        data: {
          scenarios: page.rows,
          total: page.total,
          ...(page.totalExact ? {} : { total_exact: false }),
          next_cursor: page.nextCursor,
        },
      };
    }),
    route(E.GET_SCENARIO, async (c) => {
      const id = c.params['id']!;
      const scenario = await deps.store.scenarios.get(c.orgId, id);
      if (!scenario) return refuse(fail(API_ERRORS.scenarioNotFound));
      const bytes = await deps.store.results.latestJson(c.orgId, id);
      // Copied at once: the bytes may be a view of the store's read buffer (valid until the next read).
      const own = bytes === undefined ? null : (Uint8Array.prototype.slice.call(bytes) as Uint8Array);
      const results: unknown =
        own === null ? notEvaluatedView(id, scenario.name) : JSON.parse(Buffer.from(own).toString('utf8'));
      const blueprint = await deps.store.scenarios.blueprint(c.orgId, id, scenario.version);
      // Drawn in a worker (it parses the blueprint and the results there, off the main thread).
      const drawn = blueprint
        ? await deps.pool.runRender(c.orgId, { kind: 'render', scenarioId: id, blueprint, results: own })
        : null;
      const svg = drawn?.ok === true ? drawn.svg : null;
      const [remediation, history] = await Promise.all([
        (async () => deps.store.results.remediation(c.orgId, id))(),
        (async () => deps.store.fleet.history(c.orgId, id))(),
      ]);
      const parsedRemediation = Object.fromEntries(
        Object.entries(remediation ?? {}).map(([code, json]) => [
          code,
          json === null ? null : (JSON.parse(json) as unknown),
        ]),
      );
      return {
        data: {
          scenario: {
            scenario_id: scenario.scenario_id,
            name: scenario.name,
            version: scenario.version,
            imported_at: scenario.imported_at,
            module_count: scenario.module_count,
          },
          results,
          remediation: parsedRemediation,
          history,
          svg,
        },
      };
    }),
    route(E.LIST_WEBHOOKS, (c) => listWebhooks(deps, c.orgId)),
    route(E.LIST_DELIVERIES, (c) => listDeliveries(deps, c.orgId, c.params['id']!)),
    route(E.LIST_WAIVERS, (c) => listWaivers(deps, c.orgId, c.req.query)),
    route(E.GET_SETTINGS, (c) => getSettings(deps, c.orgId)),
    route(E.LIST_RULES, (c) => listRules(deps, c.orgId)),
    route(E.CREATE_WEBHOOK, (c) => createWebhook(deps, webhooks, c.orgId, actor(c), c.req.body)),
    route(E.DELETE_WEBHOOK, (c) => deleteWebhook(deps, webhooks, c.orgId, actor(c), c.params['id']!)),
    route(E.REDELIVER, (c) => redeliver(deps, webhooks, c.orgId, c.params['id']!, c.params['delivery_id']!)),
    route(E.CREATE_WAIVER, (c) => createWaiver(deps, c.orgId, actor(c), c.req.body)),
    route(E.REVOKE_WAIVER, (c) => revokeWaiver(deps, c.orgId, actor(c), c.params['id']!)),
    route(E.PUT_SETTINGS, (c) => putSettings(deps, c.orgId, actor(c), c.req.headers['if-match'], c.req.body)),
  ];
}
