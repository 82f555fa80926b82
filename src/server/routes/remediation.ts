/** @module server/routes/remediation: `GET /violations/{scenario_id}:{policy_code}/remediation` (spec §4). */
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';
import { MAX_ID_LENGTH } from '../router.js';
import type { RouteDeps } from './deps.js';
import { unpackRemediation } from '../../actors/worker-protocol.js';
import { POLICY_BY_CODE } from '../../engine/index.js';
import { API_ERRORS } from '../errors.js';
import { fail, okJson } from '../http/envelope.js';

const POLICY_CODE = /^[A-Z]{2,5}-\d{1,4}$/;

/** `GET /violations/{violation_id}/remediation`. */
export const GET_REMEDIATION: Endpoint = {
  method: 'GET',
  template: '/violations/{violation_id}/remediation',
  permission: 'governance:evaluate',
  // The whole segment is checked by the handler: its form first (400), then the scenario id's length (404).
  params: {
    violation_id: {
      notFound: API_ERRORS.scenarioNotFound,
      maxLength: null,
      description: '`{scenario_id}:{policy_code}` (the scenario id is 1-128 characters)',
    },
  },
  openapi: {
    operationId: 'getRemediation',
    tags: ['evaluations'],
    summary: 'Remediation steps for one violation',
    success: { status: 200, data: 'Remediation', description: 'Ordered steps' },
    errors: {
      400: '`violation_id must be {blueprint_id}:{policy_code}`',
      404: '`Scenario not found`, `Blueprint not found`, `Policy not found`, `Violation not found`',
      500: '`Remediation generation failed` (retry with backoff) or `Internal server error`',
    },
  },
};

/**
 * Remediation of one violation. From the latest stored results; a scenario never evaluated is
 * evaluated on demand in the pool (nothing stored). 400 for a malformed id, 404 `Scenario not found`
 * (also for a scenario id longer than MAX_ID_LENGTH, which cannot exist)
 * / `Blueprint not found` / `Policy not found` / `Violation not found`, 500 `Remediation generation failed`.
 */
export function remediationRoute(deps: RouteDeps): Route {
  return {
    ...GET_REMEDIATION,
    async handle(_req, ctx) {
      const violationId = ctx.params['violation_id']!;
      const sep = violationId.lastIndexOf(':');
      const scenarioId = sep > 0 ? violationId.slice(0, sep) : '';
      const code = sep > 0 ? violationId.slice(sep + 1) : '';
      if (scenarioId === '' || !POLICY_CODE.test(code)) return fail(API_ERRORS.violationIdMalformed);
      if (scenarioId.length > MAX_ID_LENGTH) return fail(API_ERRORS.scenarioNotFound);
      const orgId = ctx.key!.org_id;
      const scenario = await deps.store.scenarios.get(orgId, scenarioId);
      if (!scenario) return fail(API_ERRORS.scenarioNotFound);
      // Built-in codes, and the organization's custom rules (`ORG-<n>`, issue 17), even deleted ones: results keep them.
      if (!POLICY_BY_CODE.has(code) && !(code.startsWith('ORG-') && (await deps.store.governance.getRule(orgId, code))))
        return fail(API_ERRORS.policyNotFound, { detail: code });
      let remediation = await deps.store.results.remediation(orgId, scenarioId);
      if (!remediation) {
        const blueprint = await deps.store.scenarios.blueprint(orgId, scenarioId, scenario.version);
        if (!blueprint) return fail(API_ERRORS.blueprintNotFound);
        const run = await deps.pool.runScenario(orgId, {
          kind: 'scenario',
          scenarioId,
          blueprint,
          evaluationId: 'on-demand',
          evaluatedAt: new Date(deps.now()).toISOString(),
          governance: await deps.evaluations.governance.current(orgId),
        });
        if (!run.ok)
          return fail(API_ERRORS.remediationFailed, {
            detail: 'The blueprint could not be evaluated; retry with backoff',
          });
        remediation = unpackRemediation(run.remediation);
      }
      const entry = remediation[code];
      if (entry === undefined)
        return fail(API_ERRORS.violationNotFound, { detail: `${code} is not violated by scenario ${scenarioId}` });
      if (entry === null) return fail(API_ERRORS.remediationFailed);
      return okJson(entry, ctx.watermark!);
    },
  };
}
