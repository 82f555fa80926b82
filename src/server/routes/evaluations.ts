/** @module server/routes/evaluations: `GET /evaluations/{id}` (spec §4, status view of §2). */
import type { Route } from '../router.js';
import type { RouteDeps } from './deps.js';
import { API_ERRORS } from '../errors.js';
import { fail, okJson } from '../http/envelope.js';

/** `GET /evaluations/{id}`: 404 when unknown or purged, 403 for another organization's evaluation. */
export function evaluationStatusRoute(deps: RouteDeps): Route {
  return {
    method: 'GET', template: '/evaluations/{id}', permission: 'governance:evaluate',
    handle(_req, ctx) {
      const record = deps.evaluations.get(ctx.params['id']!);
      if (!record) return fail(API_ERRORS.evaluationNotFound);
      if (record.org_id !== ctx.key!.org_id) return fail(API_ERRORS.evaluationForbidden);
      const data: Record<string, unknown> = {
        evaluation_id: record.evaluation_id, status: record.status, total_scenarios: record.total_scenarios, completed: record.completed,
        created_at: record.created_at, completed_at: record.completed_at,
      };
      if (record.status === 'complete') data['scenarios'] = record.scenarios;
      if (record.status === 'error') data['error'] = record.error;
      const json = okJson(JSON.stringify(data), ctx.watermark!);
      // spec §2 lists the batch-level `error` outside `data`; it is sent in both places.
      return record.status === 'error' ? { ...json, body: `${json.body.slice(0, -1)},"error":${JSON.stringify(record.error)}}` } : json;
    },
  };
}
