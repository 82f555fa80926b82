/** @module server/routes/inline: `POST /evaluate/inline`, synchronous and ephemeral (spec §4; design notes "Inline result"). */
import { randomUUID } from 'node:crypto';
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';
import type { RouteDeps } from './deps.js';
import { API_ERRORS } from '../errors.js';
import { fail, okBytes } from '../http/envelope.js';
import { refuseAdmission } from './overload.js';
import { SHUTDOWN_RETRY_AFTER_S } from '../app.js';
import { schemaRef } from '../openapi/components.js';

/** `POST /evaluate/inline`. */
export const EVALUATE_INLINE: Endpoint = {
  method: 'POST',
  template: '/evaluate/inline',
  permission: 'governance:evaluate',
  openapi: {
    operationId: 'evaluateInline',
    tags: ['evaluations'],
    summary: 'Evaluate one blueprint synchronously (ephemeral unless save_to_workspace)',
    requestBody: schemaRef('InlineEvaluationRequest'),
    success: { status: 200, data: 'InlineResult', description: 'Violations, module graph and optional remediation' },
    errors: {
      422: '`Invalid request body` with `detail[]` (paths into the blueprint)',
      503: '`Evaluation capacity exhausted` or `Service is shutting down`; honour `Retry-After`',
    },
  },
};

/** The raw body goes to a worker, which parses, validates and evaluates it; nothing is stored unless `save_to_workspace`. */
export function inlineRoute(deps: RouteDeps): Route {
  return {
    ...EVALUATE_INLINE,
    async handle(req, ctx) {
      const org = ctx.key!.org_id;
      const admission = deps.pool.admission(org, 1);
      if (admission !== 'ok') return refuseAdmission(admission);
      // The body's own buffer is transferred to the worker (a copy when the request shares its buffer).
      const body = req.takeBody();
      const governance = await deps.evaluations.governance.current(org);
      const result = await deps.pool.runInline(org, { kind: 'inline', body, governance });
      if (!result.ok && result.code === 'pool_closed')
        return fail(API_ERRORS.shuttingDown, {
          headers: [['retry-after', String(SHUTDOWN_RETRY_AFTER_S)]],
          close: true,
        });
      const m = deps.metrics;
      if (m) {
        m.batches.labels('inline').inc();
        if (result.ok) {
          m.scenarios.labels('ok').inc();
          m.scenarioSeconds.observe(result.stats.evaluateMs / 1000);
          for (const [k, n] of Object.entries(result.stats.violations)) {
            const [category, severity] = k.split('|');
            m.violations.labels(category!, severity!).inc(n);
          }
        } else {
          m.scenarios.labels(result.code).inc();
        }
      }
      if (!result.ok) {
        if (result.code === 'invalid') return fail(API_ERRORS.invalidBody, { detail: result.detail });
        return fail(API_ERRORS.invalidBody, {
          detail: [{ path: '/blueprint', message: `could not be evaluated: ${result.message}` }],
        });
      }
      if (!result.save) return okBytes(result.json, ctx.watermark!);
      const scenarioId = result.save.scenarioId ?? `ws-${randomUUID()}`;
      await deps.store.scenarios.save({
        orgId: ctx.key!.org_id,
        scenarioId,
        name: result.save.name,
        blueprintJson: result.save.blueprintJson,
        moduleCount: result.save.moduleCount,
        nowIso: new Date(deps.now()).toISOString(),
      });
      const saved = Buffer.from(`,"saved":{"scenario_id":${JSON.stringify(scenarioId)}}}`, 'utf8');
      return okBytes(Buffer.concat([result.json.subarray(0, -1), saved]), ctx.watermark!);
    },
  };
}
