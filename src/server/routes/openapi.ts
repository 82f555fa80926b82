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
    success: { status: 200, body: { type: 'object' }, description: 'OpenAPI 3.1 document' },
    errors: { 403: '`Browser access not allowed`' },
  },
};

/**
 * Serves `document`, serialised once at boot. It is passed in (routes/public-routes.ts) because the
 * document is built from the declarations, this route's among them.
 */
export function openApiRoute(document: Readonly<Record<string, unknown>>): Route {
  const body = JSON.stringify(document);
  return { ...GET_OPENAPI, handle: () => ({ status: 200, body, headers: [['cache-control', 'max-age=300']] }) };
}
