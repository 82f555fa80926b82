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
import { publicAnswer, refuse, type Outcome } from './outcome.js';

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

/** `POST /webhooks` for the organization: checks the body, stores the endpoint, shows its secret once. */
export async function createWebhook(
  deps: RouteDeps,
  dispatcher: WebhookDispatcher,
  orgId: string,
  actor: string,
  body: Buffer,
): Promise<Outcome> {
  const parsed = parseJsonBody(body);
  if (!parsed.ok) return refuse(fail(API_ERRORS.invalidBody, { detail: parsed.detail }));
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
  if (detail.length > 0) return refuse(fail(API_ERRORS.invalidBody, { detail }));
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
    return refuse(
      fail(API_ERRORS.invalidBody, {
        detail: [{ path: '/', message: `at most ${MAX_WEBHOOKS_PER_ORG} webhooks per organization` }],
      }),
    );
  }
  await deps.audit.record(orgId, actor, 'webhook.create', record.webhook_id, record.url);
  return { data: { ...view(record), secret: dispatcher.secretOf(record.webhook_id) }, status: 201 };
}

/** `GET /webhooks` for the organization. */
export async function listWebhooks(deps: RouteDeps, orgId: string): Promise<Outcome> {
  return { data: { webhooks: (await deps.store.webhooks.list(orgId)).map(view) } };
}

/** `DELETE /webhooks/{id}` for the organization. */
export async function deleteWebhook(
  deps: RouteDeps,
  dispatcher: WebhookDispatcher,
  orgId: string,
  actor: string,
  id: string,
): Promise<Outcome> {
  const w = await deps.store.webhooks.get(orgId, id);
  if (!w) return refuse(fail(API_ERRORS.webhookNotFound));
  dispatcher.forget(w.webhook_id);
  await deps.store.webhooks.delete(orgId, w.webhook_id);
  await deps.audit.record(orgId, actor, 'webhook.delete', w.webhook_id, w.url);
  return { data: { webhook_id: w.webhook_id, deleted: true } };
}

/** `GET /webhooks/{id}/deliveries` for the organization (newest 100). */
export async function listDeliveries(deps: RouteDeps, orgId: string, id: string): Promise<Outcome> {
  const w = await deps.store.webhooks.get(orgId, id);
  if (!w) return refuse(fail(API_ERRORS.webhookNotFound));
  const list = (await deps.store.webhooks.deliveries(w.webhook_id, 100)).map((d) => ({
    delivery_id: d.delivery_id,
    event_type: d.event_type,
    evaluation_id: d.evaluation_id,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.next_attempt_at === null ? null : new Date(d.next_attempt_at).toISOString(),
    created_at: d.created_at,
  }));
  return { data: { deliveries: list } };
}

/** `POST /webhooks/{id}/deliveries/{delivery_id}/redeliver` for the organization. */
export async function redeliver(
  deps: RouteDeps,
  dispatcher: WebhookDispatcher,
  orgId: string,
  id: string,
  deliveryId: string,
): Promise<Outcome> {
  const w = await deps.store.webhooks.get(orgId, id);
  if (!w) return refuse(fail(API_ERRORS.webhookNotFound));
  if (w.status !== 'active')
    return refuse(fail(API_ERRORS.webhookDisabled, { detail: w.disabled_reason ?? 'disabled' }));
  const d = await dispatcher.redeliver(orgId, w.webhook_id, deliveryId);
  return d
    ? { data: { delivery_id: d.delivery_id, status: d.status }, status: 202 }
    : refuse(fail(API_ERRORS.deliveryNotFound));
}

/** The six webhook routes. */
export function webhookRoutes(deps: RouteDeps, dispatcher: WebhookDispatcher): Route[] {
  return [
    {
      ...CREATE_WEBHOOK,
      async handle(req, ctx) {
        return publicAnswer(
          await createWebhook(deps, dispatcher, ctx.key!.org_id, keyActor(ctx.key!.key_id), req.body),
          ctx.watermark!,
        );
      },
    },
    {
      ...LIST_WEBHOOKS,
      async handle(_req, ctx) {
        return publicAnswer(await listWebhooks(deps, ctx.key!.org_id), ctx.watermark!);
      },
    },
    {
      ...GET_WEBHOOK,
      async handle(_req, ctx) {
        const w = await deps.store.webhooks.get(ctx.key!.org_id, ctx.params['id']!);
        return w ? ok(view(w), ctx.watermark!) : fail(API_ERRORS.webhookNotFound);
      },
    },
    {
      ...DELETE_WEBHOOK,
      async handle(_req, ctx) {
        return publicAnswer(
          await deleteWebhook(deps, dispatcher, ctx.key!.org_id, keyActor(ctx.key!.key_id), ctx.params['id']!),
          ctx.watermark!,
        );
      },
    },
    {
      ...LIST_DELIVERIES,
      async handle(_req, ctx) {
        return publicAnswer(await listDeliveries(deps, ctx.key!.org_id, ctx.params['id']!), ctx.watermark!);
      },
    },
    {
      ...REDELIVER,
      async handle(_req, ctx) {
        const o = await redeliver(deps, dispatcher, ctx.key!.org_id, ctx.params['id']!, ctx.params['delivery_id']!);
        return publicAnswer(o, ctx.watermark!);
      },
    },
  ];
}
