/** @module server/routes/evaluate: `POST /evaluate` (spec §4), stored and ephemeral batches. */
import type { ScenarioInput } from '../../actors/evaluation-actor.js';
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';
import type { RouteDeps } from './deps.js';
import type { ApiRequest } from '../http/types.js';
import { formatTraceparent } from '../../model/trace-context.js';
import { API_ERRORS } from '../errors.js';
import { fail, ok } from '../http/envelope.js';
import { readBody } from './body.js';
import { schemaRef } from '../openapi/components.js';
import { submitView } from '../../api/views/evaluation.js';
import { refuseAdmission } from './overload.js';

/** `POST /evaluate`. */
export const SUBMIT_EVALUATION: Endpoint = {
  method: 'POST',
  template: '/evaluate',
  permission: 'governance:evaluate',
  openapi: {
    operationId: 'submitEvaluation',
    tags: ['evaluations'],
    summary: 'Submit a batch of 1 to 10 scenarios',
    description:
      'Exactly one of `scenario_ids` (stored scenarios; a result token is returned) or `blueprints` (ephemeral, ids `inline-1..n`, no token, no webhook). Unknown ids → 404 listing them; nothing is evaluated.',
    requestBody: schemaRef('EvaluateRequest'),
    success: { status: 200, data: 'SubmitResult', description: 'Accepted; poll GET /evaluations/{id}' },
    errors: {
      403: 'Authentication rows, or `org_id does not match API key organization`',
      404: '`Unknown scenario_ids not found in this organization: <ids>`',
      422: '`Invalid request body` with `detail[]`',
      503: '`Evaluation capacity exhausted` or `Service is shutting down`; honour `Retry-After`',
    },
  },
};

/** `POST /evaluate`: validates, checks every id, stores the batch, returns at once. */
export function evaluateRoute(deps: RouteDeps): Route {
  return {
    ...SUBMIT_EVALUATION,
    async handle(req, ctx) {
      const read = readBody<{ scenario_ids?: string[]; blueprints?: Record<string, unknown>[]; org_id?: string }>(
        req,
        deps.validators.evaluate,
      );
      if (!read.ok) return read.response;
      const body = read.value;
      if ((body.scenario_ids === undefined) === (body.blueprints === undefined)) {
        return fail(API_ERRORS.invalidBody, {
          detail: [{ path: '/', message: 'provide exactly one of scenario_ids or blueprints' }],
        });
      }
      const key = ctx.key!;
      if (body.org_id !== undefined && body.org_id !== key.org_id) return fail(API_ERRORS.orgMismatch);
      const n = (body.scenario_ids ?? body.blueprints!).length;
      const admission = deps.evaluations.admission(key.org_id, n);
      if (admission !== 'ok') return refuseAdmission(admission);
      if (body.blueprints) {
        const bad = body.blueprints.flatMap((b, i) =>
          Array.isArray(b['flow']) ? [] : [{ path: `/blueprints/${i}/flow`, message: 'must be an array of modules' }],
        );
        if (bad.length > 0) return fail(API_ERRORS.invalidBody, { detail: bad });
        const ids = body.blueprints.map((_, i) => `inline-${i + 1}`);
        const inputs: ScenarioInput[] = body.blueprints.map((b, i) => ({
          scenarioId: ids[i]!,
          blueprint: Buffer.from(JSON.stringify(b)),
        }));
        const record = await deps.evaluations.submit(
          key,
          'ephemeral',
          ids,
          inputs,
          ids.map(() => 0),
          'api',
          traceparentOf(req),
        );
        deps.metrics?.batches.labels('ephemeral').inc();
        return ok(submitView(record, null), ctx.watermark!);
      }
      const ids = body.scenario_ids!;
      const scenarios = await Promise.all(ids.map(async (id) => deps.store.scenarios.get(key.org_id, id)));
      const unknown = ids.filter((_, i) => !scenarios[i]);
      if (unknown.length > 0) {
        const list = [...new Set(unknown)].join(', ');
        return fail(API_ERRORS.unknownScenarioIds, {
          error: `${API_ERRORS.unknownScenarioIds.error}: ${list}`,
          detail: list,
        });
      }
      // Read together: one pipelined round trip on Redis instead of one per scenario.
      const blueprints = await Promise.all(
        ids.map(async (id, i) => deps.store.scenarios.blueprint(key.org_id, id, scenarios[i]!.version)),
      );
      const inputs: ScenarioInput[] = [];
      for (const [i, id] of ids.entries()) {
        const blueprint = blueprints[i];
        if (!blueprint) return fail(API_ERRORS.blueprintNotFound, { detail: id });
        inputs.push({ scenarioId: id, blueprint, ...faultFor(req.headers, id) });
      }
      const record = await deps.evaluations.submit(
        key,
        'stored',
        ids,
        inputs,
        scenarios.map((s) => s!.version),
        'api',
        traceparentOf(req),
      );
      const token = await deps.tokens.issue(record.evaluation_id, key.org_id, Math.floor(deps.now() / 1000));
      deps.metrics?.batches.labels('stored').inc();
      deps.metrics?.tokensIssued.inc();
      return ok(submitView(record, token), ctx.watermark!);
    },
  };
}

/** Test-only fault injection (`X-Gov-Fault: <scenario_id>=exit`), honoured only with GOV_ENABLE_FAULT_INJECTION=1. */
function faultFor(headers: Readonly<Record<string, string>>, scenarioId: string): Pick<ScenarioInput, 'fault'> {
  const spec = process.env['GOV_ENABLE_FAULT_INJECTION'] === '1' ? headers['x-gov-fault'] : undefined;
  if (!spec) return {};
  for (const part of spec.split(',')) {
    const [id, fault] = part.split('=');
    if (id === scenarioId && (fault === 'throw' || fault === 'exit' || fault === 'oom' || fault === 'hang'))
      return { fault };
  }
  return {};
}

/** The request's trace context as the evaluation record keeps it (this service's span), or undefined. */
function traceparentOf(req: ApiRequest): string | undefined {
  const t = req.trace;
  return t ? formatTraceparent(t.traceId, t.spanId, t.flags) : undefined;
}
