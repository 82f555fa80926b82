/**
 * @module server/routes/webhooks: `/webhooks` (design notes "Webhooks"; permission `webhooks:manage`):
 * register (secret shown once), list, get, delete, list deliveries, redeliver.
 */
import { randomBytes } from 'node:crypto';
import type { WebhookRecord } from '../../model/records.js';
import type { WebhookDispatcher } from '../../actors/webhooks/dispatcher.js';
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';
import type { RouteDeps } from './deps.js';
import { EVALUATION_COMPLETE, WEBHOOK_EVENTS } from '../../actors/webhooks/dispatcher.js';
import { targetProblem } from '../../actors/webhooks/target-guard.js';
import { API_ERRORS } from '../errors.js';
import { fail, ok } from '../http/envelope.js';
import { parseJsonBody } from '../../api/requests.js';
import { schemaRef } from '../openapi/components.js';
import { keyActor } from '../audit.js';

/** Most endpoints per organization. */
export const MAX_WEBHOOKS_PER_ORG = 20;

const MANAGE = 'webhooks:manage' as const;
const WEBHOOK_ID = { id: { notFound: API_ERRORS.webhookNotFound, description: 'Webhook id' } };

/** `POST /webhooks`. Its body is checked by hand (URL rules need the config), against the documented `WebhookCreate`. */
export const CREATE_WEBHOOK: Endpoint = {
  method: 'POST',
  template: '/webhooks',
  permission: MANAGE,
  openapi: {
    operationId: 'createWebhook',
    tags: ['webhooks'],
    summary: 'Register an endpoint (the secret is shown once)',
    requestBody: schemaRef('WebhookCreate'),
    success: { status: 201, data: 'Webhook', description: 'Registered, with `secret`' },
    errors: {
      403: 'Authentication rows, or `Key lacks webhooks:manage permission`',
      422: '`Invalid request body` (URL rules, events)',
    },
  },
};

/** `GET /webhooks`. */
export const LIST_WEBHOOKS: Endpoint = {
  method: 'GET',
  template: '/webhooks',
  permission: MANAGE,
  openapi: {
    operationId: 'listWebhooks',
    tags: ['webhooks'],
    summary: 'List endpoints',
    success: { status: 200, data: 'WebhookList', description: 'Endpoints (no secrets)' },
  },
};

/** `GET /webhooks/{id}`. */
export const GET_WEBHOOK: Endpoint = {
  method: 'GET',
  template: '/webhooks/{id}',
  permission: MANAGE,
  params: WEBHOOK_ID,
  openapi: {
    operationId: 'getWebhook',
    tags: ['webhooks'],
    summary: 'One endpoint',
    success: { status: 200, data: 'Webhook', description: 'Endpoint' },
    errors: { 404: '`Webhook not found`' },
  },
};

/** `DELETE /webhooks/{id}`. */
export const DELETE_WEBHOOK: Endpoint = {
  method: 'DELETE',
  template: '/webhooks/{id}',
  permission: MANAGE,
  params: WEBHOOK_ID,
  openapi: {
    operationId: 'deleteWebhook',
    tags: ['webhooks'],
    summary: 'Delete an endpoint and its pending deliveries',
    success: { status: 200, data: 'WebhookDeleted', description: 'Deleted' },
    errors: { 404: '`Webhook not found`' },
  },
};

/** `GET /webhooks/{id}/deliveries`. */
export const LIST_DELIVERIES: Endpoint = {
  method: 'GET',
  template: '/webhooks/{id}/deliveries',
  permission: MANAGE,
  params: WEBHOOK_ID,
  openapi: {
    operationId: 'listDeliveries',
    tags: ['webhooks'],
    summary: 'Delivery log (newest 100)',
    success: { status: 200, data: 'DeliveryList', description: 'Deliveries with their attempts' },
    errors: { 404: '`Webhook not found`' },
  },
};

/** `POST /webhooks/{id}/deliveries/{delivery_id}/redeliver`. */
export const REDELIVER: Endpoint = {
  method: 'POST',
  template: '/webhooks/{id}/deliveries/{delivery_id}/redeliver',
  permission: MANAGE,
  params: { ...WEBHOOK_ID, delivery_id: { notFound: API_ERRORS.deliveryNotFound, description: 'Delivery id' } },
  openapi: {
    operationId: 'redeliver',
    tags: ['webhooks'],
    summary: 'Queue a delivery again now',
    success: { status: 202, data: 'Redelivery', description: 'Queued' },
    errors: { 404: '`Webhook not found`, `Delivery not found`', 409: '`Webhook is disabled`' },
  },
};

/** The webhook endpoints, in the order of the document. */
export const WEBHOOK_ENDPOINTS: readonly Endpoint[] = [
  CREATE_WEBHOOK,
  LIST_WEBHOOKS,
  GET_WEBHOOK,
  DELETE_WEBHOOK,
  LIST_DELIVERIES,
  REDELIVER,
];

const view = (w: WebhookRecord) => ({
  webhook_id: w.webhook_id,
  url: w.url,
  events: w.events,
  description: w.description,
  status: w.status,
  disabled_reason: w.disabled_reason,
  created_at: w.created_at,
});

/** The six webhook routes. */
export function webhookRoutes(deps: RouteDeps, dispatcher: WebhookDispatcher): Route[] {
  const find = (orgId: string, id: string) => deps.store.webhooks.get(orgId, id);
  return [
    {
      ...CREATE_WEBHOOK,
      async handle(req, ctx) {
        const parsed = parseJsonBody(req.body);
        if (!parsed.ok) return fail(API_ERRORS.invalidBody, { detail: parsed.detail });
        const b = parsed.value as { url?: unknown; events?: unknown; description?: unknown };
        const detail: { path: string; message: string }[] = [];
        if (typeof b?.url !== 'string' || b.url.length > 2048)
          detail.push({ path: '/url', message: 'is required (a URL of at most 2048 characters)' });
        else {
          const problem = targetProblem(b.url, deps.config.webhookAllowPrivateTargets);
          if (problem) detail.push({ path: '/url', message: problem });
        }
        const events = b?.events ?? [EVALUATION_COMPLETE];
        if (
          !Array.isArray(events) ||
          events.length === 0 ||
          events.some((e) => typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e))
        )
          detail.push({
            path: '/events',
            message: `must be a non-empty array of ${WEBHOOK_EVENTS.map((e) => `"${e}"`).join(', ')}`,
          });
        if (b?.description !== undefined && (typeof b.description !== 'string' || b.description.length > 500))
          detail.push({ path: '/description', message: 'must be a string of at most 500 characters' });
        if (detail.length > 0) return fail(API_ERRORS.invalidBody, { detail });
        const orgId = ctx.key!.org_id;
        const record: WebhookRecord = {
          webhook_id: `wh_${randomBytes(8).toString('hex')}`,
          org_id: orgId,
          url: b.url as string,
          events: [...new Set(events as string[])],
          description: typeof b.description === 'string' ? b.description : null,
          status: 'active',
          disabled_reason: null,
          created_at: new Date(deps.now()).toISOString(),
        };
        if (!(await deps.store.webhooks.create(record, MAX_WEBHOOKS_PER_ORG))) {
          return fail(API_ERRORS.invalidBody, {
            detail: [{ path: '/', message: `at most ${MAX_WEBHOOKS_PER_ORG} webhooks per organization` }],
          });
        }
        await deps.audit.record(orgId, keyActor(ctx.key!.key_id), 'webhook.create', record.webhook_id, record.url);
        return ok({ ...view(record), secret: dispatcher.secretOf(record.webhook_id) }, ctx.watermark!, 201);
      },
    },
    {
      ...LIST_WEBHOOKS,
      async handle(_req, ctx) {
        const orgId = ctx.key!.org_id;
        const list = (await deps.store.webhooks.list(orgId)).map(view);
        return ok({ webhooks: list }, ctx.watermark!);
      },
    },
    {
      ...GET_WEBHOOK,
      async handle(_req, ctx) {
        const w = await find(ctx.key!.org_id, ctx.params['id']!);
        return w ? ok(view(w), ctx.watermark!) : fail(API_ERRORS.webhookNotFound);
      },
    },
    {
      ...DELETE_WEBHOOK,
      async handle(_req, ctx) {
        const orgId = ctx.key!.org_id;
        const w = await find(orgId, ctx.params['id']!);
        if (!w) return fail(API_ERRORS.webhookNotFound);
        dispatcher.forget(w.webhook_id);
        await deps.store.webhooks.delete(orgId, w.webhook_id);
        await deps.audit.record(orgId, keyActor(ctx.key!.key_id), 'webhook.delete', w.webhook_id, w.url);
        return ok({ webhook_id: w.webhook_id, deleted: true }, ctx.watermark!);
      },
    },
    {
      ...LIST_DELIVERIES,
      async handle(_req, ctx) {
        const w = await find(ctx.key!.org_id, ctx.params['id']!);
        if (!w) return fail(API_ERRORS.webhookNotFound);
        const list = (await deps.store.webhooks.deliveries(w.webhook_id, 100)).map((d) => ({
          delivery_id: d.delivery_id,
          event_type: d.event_type,
          evaluation_id: d.evaluation_id,
          status: d.status,
          attempts: d.attempts,
          next_attempt_at: d.next_attempt_at === null ? null : new Date(d.next_attempt_at).toISOString(),
          created_at: d.created_at,
        }));
        return ok({ deliveries: list }, ctx.watermark!);
      },
    },
    {
      ...REDELIVER,
      async handle(_req, ctx) {
        const orgId = ctx.key!.org_id;
        const w = await find(orgId, ctx.params['id']!);
        if (!w) return fail(API_ERRORS.webhookNotFound);
        if (w.status !== 'active') return fail(API_ERRORS.webhookDisabled, { detail: w.disabled_reason ?? 'disabled' });
        const d = await dispatcher.redeliver(orgId, w.webhook_id, ctx.params['delivery_id']!);
        return d
          ? ok({ delivery_id: d.delivery_id, status: d.status }, ctx.watermark!, 202)
          : fail(API_ERRORS.deliveryNotFound);
      },
    },
  ];
}
