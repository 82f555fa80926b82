/**
 * @module server/openapi/document: the OpenAPI 3.1 document of the public API. Its `paths` are built
 * from the endpoint declarations (routes/endpoints.ts), with the request schemas the server compiles
 * (api/requests.ts) and the response schemas of components.ts. Served at GET
 * /api/public/v1/openapi.json; committed as docs/openapi.json.
 */
import type { Endpoint, ErrorStatus, Success } from '../endpoint.js';
import type { HeaderName } from './components.js';
import type { ConsoleEndpoint } from '../console/read-endpoints.js';
import { API_PREFIX, CONSOLE_PREFIX, maxLengthOf } from '../router.js';
import { PUBLIC_ENDPOINTS } from '../routes/endpoints.js';
import { CONSOLE_ACCOUNT_ENDPOINTS, CONSOLE_READ_ENDPOINTS } from '../console/read-endpoints.js';
import {
  HEADERS,
  IDEMPOTENCY_KEY_PARAMETER,
  SCHEMAS,
  TAGS,
  TRACING_PARAMETERS,
  envelope,
  schemaRef,
} from './components.js';
import { OPERATION_EXAMPLES, type OperationExamples } from './examples.js';

const VERSION = '1.0.0';

const RATE_HEADERS: readonly HeaderName[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
/** Headers of every error response with this status. */
const ERROR_HEADERS: Readonly<Partial<Record<ErrorStatus, readonly HeaderName[]>>> = {
  409: ['Retry-After'],
  429: ['Retry-After', ...RATE_HEADERS],
  503: ['Retry-After'],
};
/** Error responses every authenticated operation can return (spec §7); an operation's own rows replace them by status. */
const COMMON_ERRORS: Readonly<Partial<Record<ErrorStatus, string>>> = {
  401: '`Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing`',
  403: '`Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission`',
  413: '`Request body too large` (over 2 MiB)',
  429: '`Rate limit exceeded`; honour `Retry-After`',
  500: '`Internal server error` with `request_id`',
  503: '`Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one',
};

/** Error rows of an authenticated POST that carries `Idempotency-Key` (server/pipeline/idempotency), joined to the operation's own. */
const IDEMPOTENCY_ERRORS: Readonly<Partial<Record<ErrorStatus, string>>> = {
  400: '`Invalid Idempotency-Key`',
  409: '`Idempotent request in progress` (the first request with this `Idempotency-Key` still runs); honour `Retry-After`',
  422: '`Idempotency-Key reused with a different request`',
};

/** Whether the pipeline runs the idempotency stage for `e`: the authenticated POSTs. */
const idempotent = (e: Endpoint): boolean => e.method === 'POST' && e.permission !== null;

const headerRefs = (names: readonly HeaderName[]) =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

function errorResponse(status: ErrorStatus, description: string): Record<string, unknown> {
  const headers = ERROR_HEADERS[status];
  return {
    description,
    content: { 'application/json': { schema: schemaRef('ErrorResponse') } },
    ...(headers && { headers: headerRefs(headers) }),
  };
}

/** The success response; authenticated operations carry the rate-limit headers. */
function successResponse(s: Success, authenticated: boolean, replayable: boolean): Record<string, unknown> {
  const names: HeaderName[] = [
    ...(authenticated ? RATE_HEADERS : []),
    ...(s.headers ?? []),
    ...(replayable ? (['Idempotent-Replayed'] as const) : []),
  ];
  const schema = 'data' in s ? envelope(s.data) : s.body;
  return {
    description: s.description,
    ...(names.length > 0 && { headers: headerRefs(names) }),
    content: { 'application/json': { schema } },
  };
}

/**
 * The path parameters in template order, from the router's rules: ids are 1-128 characters after
 * percent-decoding (a longer one gets the route's 404, docs/api.md "Identifiers").
 * @throws Error for a `{param}` without a rule (the router refuses it too).
 */
function parameters(e: Endpoint): Record<string, unknown>[] {
  return [...e.template.matchAll(/\{([^}]+)\}/g)].map(([, name]) => {
    const rule = e.params?.[name!];
    if (!rule) throw new Error(`${e.method} ${e.template} has no rule for {${name}}`);
    const maxLength = maxLengthOf(rule);
    return {
      name,
      in: 'path',
      required: true,
      description: rule.description,
      schema: { type: 'string', minLength: 1, ...(maxLength !== null && { maxLength }) },
    };
  });
}

function responses(e: Endpoint): Record<number, unknown> {
  const o = e.openapi;
  const out: Record<number, unknown> = {
    [o.success.status]: successResponse(o.success, e.permission !== null, idempotent(e)),
  };
  if (o.notModified !== undefined) out[304] = { description: o.notModified };
  const errors: Partial<Record<ErrorStatus, string>> = { ...(e.permission === null ? {} : COMMON_ERRORS), ...o.errors };
  if (idempotent(e))
    for (const [status, row] of Object.entries(IDEMPOTENCY_ERRORS)) {
      const own = errors[Number(status) as ErrorStatus];
      errors[Number(status) as ErrorStatus] = own === undefined ? row : `${own}; or ${row}`;
    }
  for (const [status, description] of Object.entries(errors)) {
    if (description !== undefined) out[Number(status)] = errorResponse(Number(status) as ErrorStatus, description);
  }
  return out; // integer keys: JSON lists them in ascending order whatever the insertion order
}

/** The operation's request body, with its captured examples. */
function requestBody(schema: unknown, examples: OperationExamples | undefined): Record<string, unknown> {
  const media = { schema, ...(examples?.request !== undefined && { examples: examples.request }) };
  return { required: true, content: { 'application/json': media } };
}

/** Adds the captured response examples of an operation to its JSON responses (in place). */
function withExamples(out: Record<number, unknown>, examples: OperationExamples | undefined): Record<number, unknown> {
  for (const [status, named] of Object.entries(examples?.responses ?? {})) {
    const media = (out[Number(status)] as { content?: Record<string, Record<string, unknown>> } | undefined)?.content?.[
      'application/json'
    ];
    if (!media) throw new Error(`${status}: an example of a response the operation does not document`);
    media['examples'] = named;
  }
  return out;
}

function operation(e: Endpoint): Record<string, unknown> {
  const o = e.openapi;
  const params = [...parameters(e), ...(idempotent(e) ? [IDEMPOTENCY_KEY_PARAMETER] : []), ...TRACING_PARAMETERS];
  return {
    operationId: o.operationId,
    tags: o.tags,
    summary: o.summary,
    ...(o.description !== undefined && { description: o.description }),
    ...(params.length > 0 && { parameters: params }),
    ...(o.requestBody !== undefined && { requestBody: requestBody(o.requestBody, OPERATION_EXAMPLES[o.operationId]) }),
    // The key permission the route requires (the pipeline's 403 `Key lacks <permission> permission`); none: no authentication.
    ...(e.permission === null ? { security: [] } : { 'x-permission': e.permission }),
    responses: withExamples(responses(e), OPERATION_EXAMPLES[o.operationId]),
  };
}

/**
 * `paths` of the document: one operation per declaration, paths in the order of their first one.
 * @throws Error when two declarations share a method and template.
 */
function paths(endpoints: readonly Endpoint[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const e of endpoints) {
    const path = (out[`${API_PREFIX}${e.template}`] ??= {});
    const method = e.method.toLowerCase();
    if (path[method] !== undefined) throw new Error(`${e.method} ${e.template} is declared twice`);
    path[method] = operation(e);
  }
  return out;
}

/**
 * A console operation (tag `console`, docs/console-api.md): session-authenticated (`security`
 * `session` or `sessionCookie`), the least role in `x-role`, answers `{ ok: true, data }` without
 * `meta` and without rate-limit headers.
 */
function consoleOperation(e: ConsoleEndpoint): Record<string, unknown> {
  const o = e.openapi;
  const params = [...parameters({ ...e, permission: null }), ...TRACING_PARAMETERS];
  const s = o.success;
  const schema =
    'data' in s
      ? { type: 'object', required: ['ok', 'data'], properties: { ok: { const: true }, data: schemaRef(s.data) } }
      : s.body;
  const out: Record<number, unknown> = {
    [s.status]: { description: s.description, content: { 'application/json': { schema } } },
  };
  for (const [status, description] of Object.entries(o.errors ?? {}))
    if (description !== undefined) out[Number(status)] = errorResponse(Number(status) as ErrorStatus, description);
  return {
    operationId: o.operationId,
    tags: o.tags,
    summary: o.summary,
    ...(o.description !== undefined && { description: o.description }),
    ...(params.length > 0 && { parameters: params }),
    ...(o.requestBody !== undefined && { requestBody: requestBody(o.requestBody, OPERATION_EXAMPLES[o.operationId]) }),
    security: [{ session: [] }, { sessionCookie: [] }],
    'x-role': e.role,
    responses: withExamples(out, OPERATION_EXAMPLES[o.operationId]),
  };
}

/** `paths` of the console endpoints, under CONSOLE_PREFIX. @throws Error when two share a method and template. */
function consolePaths(endpoints: readonly ConsoleEndpoint[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const e of endpoints) {
    const path = (out[`${CONSOLE_PREFIX}${e.template}`] ??= {});
    const method = e.method.toLowerCase();
    if (path[method] !== undefined) throw new Error(`${e.method} ${e.template} is declared twice`);
    path[method] = consoleOperation(e);
  }
  return out;
}

/** What a deployment changes in the document. */
export interface DocumentOptions {
  /**
   * `PUBLIC_BASE_URL`: the origin clients reach this deployment at (e.g. `https://gov.example.com`),
   * the document's one server; null (the committed docs/openapi.json) names the local service.
   */
  readonly publicBaseUrl?: string | null;
}

/** The local service of `npm start`, the server of the committed document. */
const LOCAL_SERVER = { url: 'http://127.0.0.1:8080', description: 'Local service (npm start)' };

/** Builds the document (pure; equal objects for equal options). */
export function openApiDocument(options: DocumentOptions = {}): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Governance Evaluation Service: public API',
      version: VERSION,
      summary: 'Checks Make.com scenario blueprints against governance policies.',
      description:
        'Server-to-server HTTP/JSON API. Every request carries `Authorization: Bearer <key>` and `X-Service-Signature: t=<unix s>,v1=<hex HMAC-SHA256(signing secret, t.METHOD.path?query.body)>`. Responses use the envelope `{ ok, data, meta: { watermark } }`; errors `{ ok: false, error, detail? }`. Each operation names the API-key permission it requires in `x-permission`. Decisions the specification leaves open are in docs/api.md.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      contact: { name: 'Governance Evaluation Service' },
    },
    servers: [options.publicBaseUrl ? { url: options.publicBaseUrl, description: 'This deployment' } : LOCAL_SERVER],
    security: [{ apiKey: [], requestSignature: [] }],
    tags: TAGS,
    paths: { ...paths(PUBLIC_ENDPOINTS), ...consolePaths([...CONSOLE_READ_ENDPOINTS, ...CONSOLE_ACCOUNT_ENDPOINTS]) },
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'API key `<prefix>_live_<48 hex>`' },
        requestSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Service-Signature',
          description:
            '`t=<unix seconds>,v1=<hex HMAC-SHA256(signing_secret, t + "." + METHOD + "." + path?query + "." + body)>`; ±300 s; non-GET signatures are single-use',
        },
        session: {
          type: 'http',
          scheme: 'bearer',
          description: 'Console session token `<prefix>_sess_…` from `POST /api/v1/session` (console operations only)',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'gov_session',
          description: 'The console session cookie; changes also need `X-CSRF-Token` (docs/console-api.md)',
        },
      },
      headers: HEADERS,
      schemas: SCHEMAS,
    },
  };
}
