/** @module server/routes/rollup: `GET /organization/rollup` (spec §4 "Organization-wide rollup"; design notes shape). */
import type { Route } from '../router.js';
import type { RouteDeps } from './deps.js';
import { rollupView } from '../../actors/rollup.js';
import { emptyRollup } from '../../store/rollup.js';
import { ok } from '../http/envelope.js';

/** The caller organization's rollup, read from its incrementally maintained record (O(1) in fleet size). */
export function rollupRoute(deps: RouteDeps): Route {
  return {
    method: 'GET', template: '/organization/rollup', permission: 'governance:read',
    handle(_req, ctx) {
      const orgId = ctx.key!.org_id;
      const record = deps.store.results.rollup(orgId) ?? emptyRollup(orgId, new Date(deps.now()).toISOString());
      return ok(rollupView(record), ctx.watermark!);
    },
  };
}
