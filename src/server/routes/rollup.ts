/** @module server/routes/rollup: `GET /organization/rollup` (spec §4 "Organization-wide rollup"; design notes shape). */
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';
import type { RouteDeps } from './deps.js';
import { rollupView } from '../../api/views/rollup.js';
import { emptyRollup } from '../../store/rollup.js';
import { ok } from '../http/envelope.js';

/** `GET /organization/rollup`. */
export const GET_ORGANIZATION_ROLLUP: Endpoint = {
  method: 'GET',
  template: '/organization/rollup',
  permission: 'governance:read',
  openapi: {
    operationId: 'getOrganizationRollup',
    tags: ['catalog'],
    summary: 'Organization-wide score, top violations and framework coverage',
    success: { status: 200, data: 'Rollup', description: 'Rollup of the caller organization' },
  },
};

/** The caller organization's rollup, read from its incrementally maintained record (O(1) in fleet size). */
export function rollupRoute(deps: RouteDeps): Route {
  return {
    ...GET_ORGANIZATION_ROLLUP,
    async handle(_req, ctx) {
      const orgId = ctx.key!.org_id;
      const record = (await deps.store.results.rollup(orgId)) ?? emptyRollup(orgId, new Date(deps.now()).toISOString());
      return ok(rollupView(record), ctx.watermark!);
    },
  };
}
