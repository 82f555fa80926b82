/** @module server/routes/results-fetch: `POST /results/fetch`, single-use result-token redemption (spec §3 rule 4, §4). */
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';
import type { RouteDeps } from './deps.js';
import { API_ERRORS } from '../errors.js';
import { fail, ok, okBytes } from '../http/envelope.js';
import { readBody } from './body.js';
import { schemaRef } from '../openapi/components.js';
import { redemptionErrorView, redemptionPendingView, redemptionView } from '../../api/views/redemption.js';

/** `POST /results/fetch`. */
export const FETCH_RESULTS: Endpoint = {
  method: 'POST',
  template: '/results/fetch',
  permission: 'governance:evaluate',
  openapi: {
    operationId: 'fetchResults',
    tags: ['evaluations'],
    summary: 'Redeem a result token once',
    requestBody: schemaRef('ResultsFetchRequest'),
    success: {
      status: 200,
      data: 'ResultsFetch',
      description: '`processing` (token kept) or `complete` (token consumed)',
    },
    errors: {
      400: '`Malformed token`',
      401: 'Authentication rows, or `Invalid, expired, or already-used result token`',
      404: '`Evaluation not found`',
      422: '`Invalid request body`',
    },
  },
};

/**
 * Redeems a result token. Not complete → 200 `processing` and the token stays valid. Complete → the
 * results, and the token's `jti` is recorded with a conditional write, so of N concurrent
 * redemptions exactly one succeeds (PITFALLS 20); every later use is 401.
 */
export function resultsFetchRoute(deps: RouteDeps): Route {
  return {
    ...FETCH_RESULTS,
    async handle(req, ctx) {
      const read = readBody<{ result_token: string }>(req, deps.validators.fetch);
      if (!read.ok) return read.response;
      const token = read.value.result_token;
      const check = await deps.tokens.check(token, Math.floor(deps.now() / 1000));
      const reject = (reason: string) => deps.metrics?.tokensRejected.labels(reason).inc();
      if (!check.ok) {
        reject(check.reason);
        return fail(check.reason === 'malformed' ? API_ERRORS.malformedToken : API_ERRORS.invalidResultToken);
      }
      const { claims } = check;
      if (claims.org !== ctx.key!.org_id) {
        reject('other_organization');
        return fail(API_ERRORS.invalidResultToken);
      }
      if (await deps.store.evaluations.isTokenConsumed(claims.jti)) {
        reject('already_used');
        return fail(API_ERRORS.invalidResultToken);
      }
      const record = await deps.evaluations.get(claims.sub);
      if (!record || record.org_id !== claims.org) {
        reject('evaluation_not_found');
        return fail(API_ERRORS.evaluationNotFound);
      }
      if (record.status === 'pending' || record.status === 'processing') {
        return ok(redemptionPendingView(record), ctx.watermark!);
      }
      if (record.status === 'error') return ok(redemptionErrorView(record), ctx.watermark!);
      const won = await deps.store.evaluations.consumeToken(claims.jti, record.evaluation_id, deps.now());
      if (!won) {
        reject('already_used');
        return fail(API_ERRORS.invalidResultToken);
      }
      deps.metrics?.tokensRedeemed.inc();
      const results = await Promise.all(
        record.scenario_ids.map(async (_, i) => deps.store.evaluations.scenarioResults(record.evaluation_id, i)),
      );
      return okBytes(
        redemptionView(record, (i) => results[i]),
        ctx.watermark!,
      );
    },
  };
}
