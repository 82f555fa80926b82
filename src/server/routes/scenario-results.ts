/** @module server/routes/scenario-results: `GET /scenarios/{id}/results` (spec §4, §2 Scenario results). */
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';
import type { RouteDeps } from './deps.js';
import { API_ERRORS } from '../errors.js';
import { fail, ok, okBytes } from '../http/envelope.js';
import { notEvaluatedView } from '../../api/views/scenario-results.js';

/** `GET /scenarios/{id}/results`. */
export const GET_SCENARIO_RESULTS: Endpoint = {
  method: 'GET',
  template: '/scenarios/{id}/results',
  permission: 'governance:evaluate',
  params: { id: { notFound: API_ERRORS.scenarioNotFound, description: 'Scenario id' } },
  openapi: {
    operationId: 'getScenarioResults',
    tags: ['evaluations'],
    summary: 'Latest results of a stored scenario',
    success: { status: 200, data: 'ScenarioResults', description: 'Results, or `evaluation_status: not_evaluated`' },
    errors: { 404: '`Scenario not found`' },
  },
};

/** Serves the pre-rendered latest results (bytes read through the latest-results pointer and sent as is, no decoding), or `evaluation_status: not_evaluated` when never evaluated. */
export function scenarioResultsRoute(deps: RouteDeps): Route {
  return {
    ...GET_SCENARIO_RESULTS,
    async handle(_req, ctx) {
      const orgId = ctx.key!.org_id;
      const id = ctx.params['id']!;
      // Latest results are deleted with their scenario, so finding them proves the scenario exists.
      const view = await deps.store.results.latestJson(orgId, id);
      if (view !== undefined) return okBytes(view, ctx.watermark!); // copies out of the store's read buffer at once
      const scenario = await deps.store.scenarios.get(orgId, id);
      if (!scenario) return fail(API_ERRORS.scenarioNotFound);
      return ok(notEvaluatedView(id, scenario.name), ctx.watermark!);
    },
  };
}
