/** @module server/routes/openapi: `GET /openapi.json`, the OpenAPI 3.1 document (no authentication). */
import type { Route } from '../router.js';
import { openApiDocument } from '../openapi/document.js';

/** Serves the document, serialised once at boot. */
export function openApiRoute(): Route {
  const body = JSON.stringify(openApiDocument());
  return { method: 'GET', template: '/openapi.json', permission: null, handle: () => ({ status: 200, body, headers: [['cache-control', 'max-age=300']] }) };
}
