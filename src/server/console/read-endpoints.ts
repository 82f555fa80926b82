/**
 * @module server/console/read-endpoints: the declarations of the console routes of
 * server/console/read-routes (docs/console-api.md): what the router matches, the least role, and
 * the operation the OpenAPI document shows under the tag `console` (server/openapi/document).
 */
import type { UserRole } from '../../model/records.js';
import type { Endpoint, ErrorStatus } from '../endpoint.js';
import { API_ERRORS } from '../errors.js';
import {
  CREATE_WAIVER as PUBLIC_CREATE_WAIVER,
  REVOKE_WAIVER as PUBLIC_REVOKE_WAIVER,
  LIST_WAIVERS as PUBLIC_LIST_WAIVERS,
} from '../routes/waivers.js';
import {
  CREATE_WEBHOOK as PUBLIC_CREATE_WEBHOOK,
  DELETE_WEBHOOK as PUBLIC_DELETE_WEBHOOK,
  LIST_DELIVERIES as PUBLIC_LIST_DELIVERIES,
  LIST_WEBHOOKS as PUBLIC_LIST_WEBHOOKS,
  REDELIVER as PUBLIC_REDELIVER,
} from '../routes/webhooks.js';
import {
  GET_SETTINGS as PUBLIC_GET_SETTINGS,
  PUT_SETTINGS as PUBLIC_PUT_SETTINGS,
} from '../routes/governance-settings.js';
import { LIST_RULES as PUBLIC_LIST_RULES } from '../routes/custom-rules.js';

/** A console endpoint: an Endpoint without a key permission, with the least role of its session. */
export interface ConsoleEndpoint extends Omit<Endpoint, 'permission'> {
  readonly role: UserRole;
}

const ROLE_ERRORS = {
  401: '`Session authentication required`',
  403: '`Not authorized` (another organization, or a role below the one required)',
} as const;

/** The console twin of a public endpoint: same template, parameters, body and answers; tag `console`. */
function twin(e: Endpoint, role: UserRole, operationId: string): ConsoleEndpoint {
  const { permission: _, ...rest } = e;
  const errors: Partial<Record<ErrorStatus, string>> = { ...e.openapi.errors, ...ROLE_ERRORS };
  if (role === 'admin') errors[403] = '`Not authorized` (a member, or another organization)';
  return { ...rest, role, openapi: { ...e.openapi, operationId, tags: ['console'], errors } };
}

/** `GET /overview`. */
export const OVERVIEW: ConsoleEndpoint = {
  method: 'GET',
  template: '/overview',
  role: 'member',
  openapi: {
    operationId: 'consoleOverview',
    tags: ['console'],
    summary: 'Fleet overview: the rollup, scenarios by worst badge, evaluations of the last 30 days',
    success: { status: 200, data: 'ConsoleOverview', description: 'Overview of the session organization' },
    errors: ROLE_ERRORS,
  },
};

/** `GET /scenarios`. */
export const LIST_SCENARIOS: ConsoleEndpoint = {
  method: 'GET',
  template: '/scenarios',
  role: 'member',
  openapi: {
    operationId: 'consoleListScenarios',
    tags: ['console'],
    summary: 'Scenarios sorted, filtered and paged on the server (`q`, `badge`, `sort`, `order`, `limit`, `cursor`)',
    description:
      '`sort`: `name` (default), `score`, `badge`, `evaluated_at`, `violations`; never-evaluated scenarios sort after the others ascending. `badge`: critical, high, medium, low, info, clean, unknown, not_evaluated. `q`: case-insensitive substring of the name (its first 200 characters) or id; a search reads at most 50,000 index entries (past that `total_exact: false`). `limit` 1-200 (50). `cursor`: `next_cursor` of the previous page.',
    success: { status: 200, data: 'ScenarioList', description: 'A page' },
    errors: { ...ROLE_ERRORS, 422: '`Invalid request body` (a bad query parameter)' },
  },
};

/** `GET /scenarios/{id}`. */
export const GET_SCENARIO: ConsoleEndpoint = {
  method: 'GET',
  template: '/scenarios/{id}',
  role: 'member',
  params: { id: { notFound: API_ERRORS.scenarioNotFound, description: 'Scenario id' } },
  openapi: {
    operationId: 'consoleGetScenario',
    tags: ['console'],
    summary: 'A scenario page: the scenario, its latest results and remediation, its history',
    success: { status: 200, data: 'ScenarioPage', description: 'The page' },
    errors: { ...ROLE_ERRORS, 404: '`Scenario not found`' },
  },
};

export const LIST_WEBHOOKS = twin(PUBLIC_LIST_WEBHOOKS, 'member', 'consoleListWebhooks');
export const LIST_DELIVERIES = twin(PUBLIC_LIST_DELIVERIES, 'member', 'consoleListDeliveries');
export const LIST_WAIVERS = twin(PUBLIC_LIST_WAIVERS, 'member', 'consoleListWaivers');
export const GET_SETTINGS = twin(PUBLIC_GET_SETTINGS, 'member', 'consoleGetGovernanceSettings');
export const LIST_RULES = twin(PUBLIC_LIST_RULES, 'member', 'consoleListCustomRules');
export const CREATE_WEBHOOK = twin(PUBLIC_CREATE_WEBHOOK, 'admin', 'consoleCreateWebhook');
export const DELETE_WEBHOOK = twin(PUBLIC_DELETE_WEBHOOK, 'admin', 'consoleDeleteWebhook');
export const REDELIVER = twin(PUBLIC_REDELIVER, 'admin', 'consoleRedeliver');
export const CREATE_WAIVER = twin(PUBLIC_CREATE_WAIVER, 'admin', 'consoleCreateWaiver');
export const REVOKE_WAIVER = twin(PUBLIC_REVOKE_WAIVER, 'admin', 'consoleRevokeWaiver');
export const PUT_SETTINGS = twin(PUBLIC_PUT_SETTINGS, 'admin', 'consolePutGovernanceSettings');

/** The console endpoints of read-routes, in the order of the document. */
export const CONSOLE_READ_ENDPOINTS: readonly ConsoleEndpoint[] = [
  OVERVIEW,
  LIST_SCENARIOS,
  GET_SCENARIO,
  LIST_WEBHOOKS,
  CREATE_WEBHOOK,
  DELETE_WEBHOOK,
  LIST_DELIVERIES,
  REDELIVER,
  LIST_WAIVERS,
  CREATE_WAIVER,
  REVOKE_WAIVER,
  GET_SETTINGS,
  PUT_SETTINGS,
  LIST_RULES,
];

/** `GET /audit` (console/audit-routes). */
export const LIST_AUDIT: ConsoleEndpoint = {
  method: 'GET',
  template: '/audit',
  role: 'member',
  openapi: {
    operationId: 'consoleAudit',
    tags: ['console'],
    summary: 'The audit log, newest first (`limit` 1-200, `cursor`)',
    description:
      'Sign-ins (and failed ones), sign-outs, and every change of keys, webhooks, waivers, settings, rules and users, made in the console or through the public API.',
    success: { status: 200, data: 'AuditList', description: 'Entries and the next cursor' },
    errors: { ...ROLE_ERRORS, 422: '`Invalid request body` (a bad `limit` or `cursor`)' },
  },
};

/** `GET /users` (console/user-routes). */
export const LIST_USERS: ConsoleEndpoint = {
  method: 'GET',
  template: '/users',
  role: 'owner',
  openapi: {
    operationId: 'consoleListUsers',
    tags: ['console'],
    summary: "The organization's console accounts (owner)",
    success: { status: 200, data: 'ConsoleUserList', description: 'Accounts (never a password hash)' },
    errors: { ...ROLE_ERRORS, 403: '`Not authorized` (not an owner, or another organization)' },
  },
};

/** `POST /users` (console/user-routes). */
export const CREATE_USER: ConsoleEndpoint = {
  method: 'POST',
  template: '/users',
  role: 'owner',
  openapi: {
    operationId: 'consoleCreateUser',
    tags: ['console'],
    summary: 'Create a console account (owner); a generated password is shown once',
    requestBody: { $ref: '#/components/schemas/ConsoleUserCreate' },
    success: { status: 201, data: 'ConsoleUser', description: 'Created' },
    errors: {
      ...ROLE_ERRORS,
      403: '`Not authorized` (not an owner), or `CSRF token missing or invalid`',
      422: '`Invalid request body` (e-mail, role, the password policy, or the e-mail is taken)',
    },
  },
};

/** The console endpoints of audit-routes and user-routes, in the order of the document. */
export const CONSOLE_ACCOUNT_ENDPOINTS: readonly ConsoleEndpoint[] = [LIST_AUDIT, LIST_USERS, CREATE_USER];
