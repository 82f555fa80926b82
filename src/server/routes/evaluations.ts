/** @module server/routes/evaluations: `GET /evaluations/{id}` (spec §4, status view of §2). */
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';
import type { RouteDeps } from './deps.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';
import type { ApiResponse } from '../http/types.js';
import type { EvaluationView } from '../../store/evaluations/repository.js';
import { isPromise } from '../../store/awaitable.js';
import { StatusBodies } from './status-bodies.js';

/** `GET /evaluations/{id}`. */
export const GET_EVALUATION: Endpoint = {
  method: 'GET',
  template: '/evaluations/{id}',
  permission: 'governance:evaluate',
  params: { id: { notFound: API_ERRORS.evaluationNotFound, description: 'Evaluation id' } },
  openapi: {
    operationId: 'getEvaluation',
    tags: ['evaluations'],
    summary: 'Evaluation status',
    success: { status: 200, data: 'EvaluationStatus', description: 'Status view; `scenarios[]` when complete' },
    errors: {
      403: 'Authentication rows, or `Not authorized for this evaluation`',
      404: '`Evaluation not found` (unknown, purged, or deleted by retention)',
    },
  },
};

/**
 * `GET /evaluations/{id}`: 404 when unknown, purged or retired, 403 for another organization's evaluation.
 * Serves the view pre-rendered at the last state change (bytes straight from the store: no msgpack decode, no JSON encode, no UTF-8 round trip per poll),
 * in an envelope rendered once per view and watermark (server/routes/status-bodies).
 */
export function evaluationStatusRoute(deps: RouteDeps, bodies = new StatusBodies()): Route {
  return {
    ...GET_EVALUATION,
    handle(_req, ctx) {
      const id = ctx.params['id']!;
      const view = deps.store.evaluations.view(id);
      const orgId = ctx.key!.org_id;
      const watermark = ctx.watermark!;
      return isPromise(view) ? view.then((v) => answer(id, v, orgId, watermark)) : answer(id, view, orgId, watermark);
    },
  };
  /** The answer for a stored view (synchronous on LMDB, after the read on Redis). */
  function answer(id: string, view: EvaluationView | undefined, orgId: string, watermark: string): ApiResponse {
    if (!view || (view.expiresAt !== null && view.expiresAt <= deps.now())) return fail(API_ERRORS.evaluationNotFound);
    if (view.orgId !== orgId) return fail(API_ERRORS.evaluationForbidden);
    // spec §2 lists the batch-level `error` outside `data`; it is sent in both places. The body is
    // built (or recognised) before anything else reads the store, whose read buffer `view.json` may be.
    return { status: 200, body: bodies.body(id, view, watermark) };
  }
}
