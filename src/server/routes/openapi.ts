/** @module server/routes/openapi: `GET /openapi.json`, the OpenAPI 3.1 document (no authentication). */
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';

/** `GET /openapi.json`: the one route without authentication (and so without the shared error rows). */
export const GET_OPENAPI: Endpoint = {
  method: 'GET',
  template: '/openapi.json',
  permission: null,
  openapi: {
    operationId: 'getOpenApi',
    tags: ['meta'],
    summary: 'This document (no authentication)',
    success: {
      status: 200,
      body: {
        type: 'object',
        required: ['openapi', 'info'],
        properties: { openapi: { type: 'string' }, info: { type: 'object', additionalProperties: true } },
        additionalProperties: true,
      },
      description: 'OpenAPI 3.1 document',
    },
    errors: { 403: '`Browser access not allowed`' },
  },
};

/**
 * Serves the document `build` returns, built and serialised once, at the first request (building the
 * routes reads no dependency). It is passed in (routes/public-routes.ts) because the document is
 * built from the declarations, this route's among them.
 */
export function openApiRoute(build: () => Readonly<Record<string, unknown>>): Route {
  let body: string | null = null;
  return {
    ...GET_OPENAPI,
    handle: () => ({
      status: 200,
      body: (body ??= JSON.stringify(build())),
      headers: [['cache-control', 'max-age=300']],
    }),
  };
}
