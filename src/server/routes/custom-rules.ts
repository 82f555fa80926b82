/**
 * @module server/routes/custom-rules: `/governance/rules` (issue 17 "Custom rules"; permission
 * `governance:manage`): an organization's declarative rules (docs/custom-rules.md, validated against
 * docs/schemas/custom-rule.schema.json), coded `ORG-<n>`, evaluated in the workers beside the
 * built-in policies. Each create or delete is a new rules revision; evaluations record theirs.
 */
import type { CustomRuleRecord } from '../../model/records.js';
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';
import type { RouteDeps } from './deps.js';
import { validateRule } from '../../engine/rules/validate.js';
import { parseJsonBody } from '../../api/requests.js';
import { API_ERRORS } from '../errors.js';
import { fail, ok } from '../http/envelope.js';
import { actorOf } from './waivers.js';
import { keyActor } from '../audit.js';
import { publicAnswer, type Outcome } from './outcome.js';
import { schemaRef } from '../openapi/components.js';

/** Rules in force per organization (each costs every evaluation of the organization a pass over its modules). */
export const MAX_CUSTOM_RULES = 50;
const MANAGE = 'governance:manage' as const;
const RULE_CODE = { code: { notFound: API_ERRORS.ruleNotFound, description: 'Rule code (`ORG-<n>`)', maxLength: 16 } };

/** `POST /governance/rules`. */
export const CREATE_RULE: Endpoint = {
  method: 'POST',
  template: '/governance/rules',
  permission: MANAGE,
  openapi: {
    operationId: 'createCustomRule',
    tags: ['governance'],
    summary: 'Add a custom rule (declarative JSON; coded ORG-<n>)',
    requestBody: schemaRef('CustomRuleBody'),
    success: { status: 201, data: 'CustomRule', description: 'Stored, with its code and revision' },
    errors: {
      403: 'Authentication rows, or `Key lacks governance:manage permission`',
      422: '`Invalid request body` (the rule schema, a pattern the linear-time engine refuses, the limit of rules)',
    },
  },
};

/** `GET /governance/rules`. */
export const LIST_RULES: Endpoint = {
  method: 'GET',
  template: '/governance/rules',
  permission: MANAGE,
  openapi: {
    operationId: 'listCustomRules',
    tags: ['governance'],
    summary: 'Custom rules in force, and the rules revision',
    success: { status: 200, data: 'CustomRuleList', description: 'Rules by code' },
  },
};

/** `GET /governance/rules/{code}`. */
export const GET_RULE: Endpoint = {
  method: 'GET',
  template: '/governance/rules/{code}',
  permission: MANAGE,
  params: RULE_CODE,
  openapi: {
    operationId: 'getCustomRule',
    tags: ['governance'],
    summary: 'One custom rule (also a deleted one, with `deleted_at`)',
    success: { status: 200, data: 'CustomRule', description: 'Rule' },
    errors: { 404: '`Rule not found`' },
  },
};

/** `DELETE /governance/rules/{code}`. */
export const DELETE_RULE: Endpoint = {
  method: 'DELETE',
  template: '/governance/rules/{code}',
  permission: MANAGE,
  params: RULE_CODE,
  openapi: {
    operationId: 'deleteCustomRule',
    tags: ['governance'],
    summary: 'Delete a custom rule (its code is never reused)',
    success: { status: 200, data: 'CustomRule', description: 'Deleted, with `deleted_at`' },
    errors: { 404: '`Rule not found`' },
  },
};

/** The custom-rule endpoints. */
export const RULE_ENDPOINTS: readonly Endpoint[] = [CREATE_RULE, LIST_RULES, GET_RULE, DELETE_RULE];

/** `data` of one rule: its body, code, revision and metadata. */
export function ruleView(r: CustomRuleRecord): Record<string, unknown> {
  return {
    ...r.rule,
    code: r.code,
    revision: r.created_revision,
    created_at: r.created_at,
    created_by: r.created_by,
    deleted_at: r.deleted_at,
  };
}

/** A rule's title for the audit log, or null. */
const titleOf = (rule: Readonly<Record<string, unknown>>): string | null =>
  typeof rule['title'] === 'string' ? rule['title'] : null;
/** `GET /governance/rules` for the organization: the rules in force and the revision. */
export async function listRules(deps: RouteDeps, orgId: string): Promise<Outcome> {
  const [revision, rules] = await Promise.all([
    (async () => deps.store.governance.rulesRevision(orgId))(),
    (async () => deps.store.governance.listRules(orgId))(),
  ]);
  return { data: { revision, rules: rules.map(ruleView) } };
}

/** The four custom-rule routes. */
export function customRuleRoutes(deps: RouteDeps): Route[] {
  return [
    {
      ...CREATE_RULE,
      async handle(req, ctx) {
        const parsed = parseJsonBody(req.body);
        if (!parsed.ok) return fail(API_ERRORS.invalidBody, { detail: parsed.detail });
        const checked = validateRule(parsed.value);
        if (!checked.ok) return fail(API_ERRORS.invalidBody, { detail: checked.detail });
        const key = ctx.key!;
        const created = await deps.store.governance.createRule(
          key.org_id,
          checked.rule as unknown as Readonly<Record<string, unknown>>,
          new Date(deps.now()).toISOString(),
          actorOf(key.key_id),
          MAX_CUSTOM_RULES,
        );
        if (!created.ok)
          return fail(API_ERRORS.invalidBody, {
            detail: [{ path: '/', message: `at most ${MAX_CUSTOM_RULES} custom rules per organization` }],
          });
        await deps.audit.record(
          key.org_id,
          keyActor(key.key_id),
          'rule.create',
          created.record.code,
          titleOf(created.record.rule),
        );
        return ok(ruleView(created.record), ctx.watermark!, 201);
      },
    },
    {
      ...LIST_RULES,
      async handle(_req, ctx) {
        return publicAnswer(await listRules(deps, ctx.key!.org_id), ctx.watermark!);
      },
    },
    {
      ...GET_RULE,
      async handle(_req, ctx) {
        const r = await deps.store.governance.getRule(ctx.key!.org_id, ctx.params['code']!);
        return r ? ok(ruleView(r), ctx.watermark!) : fail(API_ERRORS.ruleNotFound);
      },
    },
    {
      ...DELETE_RULE,
      async handle(_req, ctx) {
        const key = ctx.key!;
        const r = await deps.store.governance.deleteRule(
          key.org_id,
          ctx.params['code']!,
          new Date(deps.now()).toISOString(),
          actorOf(key.key_id),
        );
        if (!r) return fail(API_ERRORS.ruleNotFound);
        await deps.audit.record(key.org_id, keyActor(key.key_id), 'rule.delete', r.code);
        return ok(ruleView(r), ctx.watermark!);
      },
    },
  ];
}
