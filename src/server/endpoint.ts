/**
 * @module server/endpoint: the one declaration of a public endpoint: what the router matches
 * (method, template, permission, path parameter rules) and its OpenAPI operation. A route file
 * exports its declarations and builds each route as `{ ...DECLARATION, handle }`; the OpenAPI
 * document is built from the list of declarations (routes/endpoints.ts), so neither can drift.
 */
import type { Permission } from '../model/records.js';
import type { HeaderName, JsonSchema, SchemaName, TagName } from './openapi/components.js';
import type { ParamRule } from './router.js';

/** Methods the public API uses (HEAD is answered by GET routes). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Error statuses an operation may document (rows of server/errors.ts). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 422 | 429 | 500 | 503;

/** A path parameter's router rule with its OpenAPI description; `maxLength` becomes the schema's. */
export interface DocumentedParam extends ParamRule {
  readonly description: string;
}

/** The success response. Authenticated operations also carry the X-RateLimit-* headers. */
export type Success = {
  readonly status: 200 | 201 | 202;
  readonly description: string;
  /** Further headers, by their name in `components.headers` (`Cache-Control`, `ETag`). */
  readonly headers?: readonly HeaderName[];
} &
  /** The schema of `data` in the envelope `{ ok: true, data, meta }`. */
  (
    | { readonly data: SchemaName }
    /** The whole body, outside the envelope (only the OpenAPI document itself). */
    | { readonly body: JsonSchema }
  );

/** The OpenAPI operation of an endpoint, beyond what the route already says. */
export interface OperationDoc {
  readonly operationId: string;
  readonly tags: readonly TagName[];
  readonly summary: string;
  readonly description?: string;
  /** The request body's schema (from src/api/requests.ts where the server compiles one); none for bodiless requests. */
  readonly requestBody?: JsonSchema;
  readonly success: Success;
  /** Description of the `304 Not Modified` a conditional GET can get. */
  readonly notModified?: string;
  /**
   * Descriptions of this operation's own error responses, by status: the exact `error` strings in
   * backticks. They replace the shared rows (401, 403, 413, 429, 500, 503) of an authenticated
   * operation for the same status; 429 and 503 get `Retry-After`.
   */
  readonly errors?: Readonly<Partial<Record<ErrorStatus, string>>>;
}

/**
 * One public endpoint. `template` is relative to API_PREFIX; `permission` `null` means no
 * authentication (no key, signature or rate limit: `security: []` in the document).
 */
export interface Endpoint {
  readonly method: HttpMethod;
  readonly template: string;
  readonly permission: Permission | null;
  /** A rule per `{param}` of the template; the router refuses a template with a parameter without one. */
  readonly params?: Readonly<Record<string, DocumentedParam>>;
  readonly openapi: OperationDoc;
}
