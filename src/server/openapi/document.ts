/**
 * @module server/openapi/document: the OpenAPI 3.1 document of the public API, built from the same
 * request schemas the server compiles (schemas/requests.ts) and the response schemas of
 * components.ts. Served at GET /api/public/v1/openapi.json; committed as docs/openapi.json.
 */
import { API_PREFIX, MAX_ID_LENGTH } from '../router.js';
import { evaluateRequestSchema, fetchRequestSchema, inlineRequestSchema } from '../../api/requests.js';
import { SCHEMAS, envelope } from './components.js';

const VERSION = '1.0.0';
const errorRef = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } });
const rateHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};
const ok = (schema: string, description: string, extraHeaders: Record<string, unknown> = {}) => ({
  description, headers: { ...rateHeaders, ...extraHeaders }, content: { 'application/json': { schema: envelope(schema) } },
});
/** Error responses every authenticated operation can return (spec §7). */
const common = {
  401: errorRef('`Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing`'),
  403: errorRef('`Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission`'),
  413: errorRef('`Request body too large` (over 2 MiB)'),
  429: { ...errorRef('`Rate limit exceeded`; honour `Retry-After`'), headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...rateHeaders } },
  500: errorRef('`Internal server error` with `request_id`'),
  503: { ...errorRef('`Service is shutting down` (graceful shutdown; the connection closes): retry after `Retry-After`, on another node when there is one'), headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } },
};
const body = (schema: unknown) => ({ required: true, content: { 'application/json': { schema } } });
/** A path parameter; ids are 1-128 characters after percent-decoding (a longer one gets the route's 404, docs/api.md "Identifiers"). */
const pathParam = (name: string, description: string, maxLength: number | null = MAX_ID_LENGTH) => ({ name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1, ...(maxLength === null ? {} : { maxLength }) } });

/** Builds the document (pure; the same object every call). */
export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Governance Evaluation Service: public API',
      version: VERSION,
      summary: 'Checks Make.com scenario blueprints against governance policies.',
      description: 'Server-to-server HTTP/JSON API. Every request carries `Authorization: Bearer <key>` and `X-Service-Signature: t=<unix s>,v1=<hex HMAC-SHA256(signing secret, t.METHOD.path?query.body)>`. Responses use the envelope `{ ok, data, meta: { watermark } }`; errors `{ ok: false, error, detail? }`. Decisions the specification leaves open are in docs/api.md.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      contact: { name: 'Governance Evaluation Service' },
    },
    servers: [{ url: 'http://127.0.0.1:8080', description: 'Local service (npm start)' }],
    security: [{ apiKey: [], requestSignature: [] }],
    tags: [
      { name: 'evaluations', description: 'Batches, status, results, remediation, result tokens' },
      { name: 'catalog', description: 'Policy catalog and organization rollup' },
      { name: 'webhooks', description: 'evaluation.complete delivery (Standard Webhooks)' },
      { name: 'meta', description: 'This document' },
    ],
    paths: {
      [`${API_PREFIX}/evaluate`]: {
        post: {
          operationId: 'submitEvaluation', tags: ['evaluations'], summary: 'Submit a batch of 1 to 10 scenarios',
          description: 'Exactly one of `scenario_ids` (stored scenarios; a result token is returned) or `blueprints` (ephemeral, ids `inline-1..n`, no token, no webhook). Unknown ids → 404 listing them; nothing is evaluated.',
          requestBody: body(evaluateRequestSchema),
          responses: { 200: ok('SubmitResult', 'Accepted; poll GET /evaluations/{id}'), ...common, 403: errorRef('Authentication rows, or `org_id does not match API key organization`'), 404: errorRef('`Unknown scenario_ids not found in this organization: <ids>`'), 422: errorRef('`Invalid request body` with `detail[]`'), 503: { ...errorRef('`Evaluation capacity exhausted` or `Service is shutting down`; honour `Retry-After`'), headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } } },
        },
      },
      [`${API_PREFIX}/evaluate/inline`]: {
        post: {
          operationId: 'evaluateInline', tags: ['evaluations'], summary: 'Evaluate one blueprint synchronously (ephemeral unless save_to_workspace)',
          requestBody: body(inlineRequestSchema),
          responses: { 200: ok('InlineResult', 'Violations, module graph and optional remediation'), ...common, 422: errorRef('`Invalid request body` with `detail[]` (paths into the blueprint)'), 503: { ...errorRef('`Evaluation capacity exhausted` or `Service is shutting down`; honour `Retry-After`'), headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } } },
        },
      },
      [`${API_PREFIX}/evaluations/{id}`]: {
        get: {
          operationId: 'getEvaluation', tags: ['evaluations'], summary: 'Evaluation status', parameters: [pathParam('id', 'Evaluation id')],
          responses: { 200: ok('EvaluationStatus', 'Status view; `scenarios[]` when complete'), ...common, 403: errorRef('Authentication rows, or `Not authorized for this evaluation`'), 404: errorRef('`Evaluation not found` (unknown or purged)') },
        },
      },
      [`${API_PREFIX}/scenarios/{id}/results`]: {
        get: {
          operationId: 'getScenarioResults', tags: ['evaluations'], summary: 'Latest results of a stored scenario', parameters: [pathParam('id', 'Scenario id')],
          responses: { 200: ok('ScenarioResults', 'Results, or `evaluation_status: not_evaluated`'), ...common, 404: errorRef('`Scenario not found`') },
        },
      },
      [`${API_PREFIX}/violations/{violation_id}/remediation`]: {
        get: {
          operationId: 'getRemediation', tags: ['evaluations'], summary: 'Remediation steps for one violation', parameters: [pathParam('violation_id', '`{scenario_id}:{policy_code}` (the scenario id is 1-128 characters)', null)],
          responses: { 200: ok('Remediation', 'Ordered steps'), ...common, 400: errorRef('`violation_id must be {blueprint_id}:{policy_code}`'), 404: errorRef('`Scenario not found`, `Blueprint not found`, `Policy not found`, `Violation not found`'), 500: errorRef('`Remediation generation failed` (retry with backoff) or `Internal server error`') },
        },
      },
      [`${API_PREFIX}/results/fetch`]: {
        post: {
          operationId: 'fetchResults', tags: ['evaluations'], summary: 'Redeem a result token once',
          requestBody: body(fetchRequestSchema),
          responses: { 200: ok('ResultsFetch', '`processing` (token kept) or `complete` (token consumed)'), ...common, 400: errorRef('`Malformed token`'), 401: errorRef('Authentication rows, or `Invalid, expired, or already-used result token`'), 404: errorRef('`Evaluation not found`'), 422: errorRef('`Invalid request body`') },
        },
      },
      [`${API_PREFIX}/governance/policies`]: {
        get: {
          operationId: 'listPolicies', tags: ['catalog'], summary: 'The policy catalog (cacheable for 24 hours)',
          responses: {
            200: ok('PolicyCatalog', 'Catalog', { 'Cache-Control': { $ref: '#/components/headers/Cache-Control' }, ETag: { $ref: '#/components/headers/ETag' } }),
            304: { description: 'Not modified (`If-None-Match` matched the `ETag`)' },
            ...common,
          },
        },
      },
      [`${API_PREFIX}/organization/rollup`]: {
        get: {
          operationId: 'getOrganizationRollup', tags: ['catalog'], summary: 'Organization-wide score, top violations and framework coverage',
          responses: { 200: ok('Rollup', 'Rollup of the caller organization'), ...common },
        },
      },
      [`${API_PREFIX}/webhooks`]: {
        post: {
          operationId: 'createWebhook', tags: ['webhooks'], summary: 'Register an endpoint (the secret is shown once)', requestBody: body({ $ref: '#/components/schemas/WebhookCreate' }),
          responses: { 201: ok('Webhook', 'Registered, with `secret`'), ...common, 403: errorRef('Authentication rows, or `Key lacks webhooks:manage permission`'), 422: errorRef('`Invalid request body` (URL rules, events)') },
        },
        get: { operationId: 'listWebhooks', tags: ['webhooks'], summary: 'List endpoints', responses: { 200: ok('WebhookList', 'Endpoints (no secrets)'), ...common } },
      },
      [`${API_PREFIX}/webhooks/{id}`]: {
        get: { operationId: 'getWebhook', tags: ['webhooks'], summary: 'One endpoint', parameters: [pathParam('id', 'Webhook id')], responses: { 200: ok('Webhook', 'Endpoint'), ...common, 404: errorRef('`Webhook not found`') } },
        delete: { operationId: 'deleteWebhook', tags: ['webhooks'], summary: 'Delete an endpoint and its pending deliveries', parameters: [pathParam('id', 'Webhook id')], responses: { 200: ok('WebhookDeleted', 'Deleted'), ...common, 404: errorRef('`Webhook not found`') } },
      },
      [`${API_PREFIX}/webhooks/{id}/deliveries`]: {
        get: { operationId: 'listDeliveries', tags: ['webhooks'], summary: 'Delivery log (newest 100)', parameters: [pathParam('id', 'Webhook id')], responses: { 200: ok('DeliveryList', 'Deliveries with their attempts'), ...common, 404: errorRef('`Webhook not found`') } },
      },
      [`${API_PREFIX}/webhooks/{id}/deliveries/{delivery_id}/redeliver`]: {
        post: {
          operationId: 'redeliver', tags: ['webhooks'], summary: 'Queue a delivery again now', parameters: [pathParam('id', 'Webhook id'), pathParam('delivery_id', 'Delivery id')],
          responses: { 202: ok('Redelivery', 'Queued'), ...common, 404: errorRef('`Webhook not found`, `Delivery not found`'), 409: errorRef('`Webhook is disabled`') },
        },
      },
      [`${API_PREFIX}/openapi.json`]: {
        get: {
          operationId: 'getOpenApi', tags: ['meta'], summary: 'This document (no authentication)', security: [],
          responses: { 200: { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } }, 403: errorRef('`Browser access not allowed`') },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'API key `<prefix>_live_<48 hex>`' },
        requestSignature: { type: 'apiKey', in: 'header', name: 'X-Service-Signature', description: '`t=<unix seconds>,v1=<hex HMAC-SHA256(signing_secret, t + "." + METHOD + "." + path?query + "." + body)>`; ±300 s; non-GET signatures are single-use' },
      },
      headers: {
        'X-RateLimit-Limit': { description: 'Requests allowed per clock minute', schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { description: 'Smaller of the remaining minute and hour budgets', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { description: 'Unix seconds when the minute window resets', schema: { type: 'integer' } },
        'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
        'Cache-Control': { description: '`max-age=86400`', schema: { type: 'string' } },
        ETag: { description: 'Catalog revision', schema: { type: 'string' } },
      },
      schemas: SCHEMAS,
    },
  };
}
