/** @module server/routes/evaluations: `GET /evaluations/{id}` (spec §4, status view of §2). */
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';
import type { RouteDeps } from './deps.js';
import { API_ERRORS } from '../errors.js';
import { fail, okBytes } from '../http/envelope.js';
import type { ApiResponse } from '../http/types.js';
import type { EvaluationView } from '../../store/evaluations/repository.js';
import { isPromise } from '../../store/awaitable.js';

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
 * Serves the view pre-rendered at the last state change (bytes straight from the store: no msgpack decode, no JSON encode, no UTF-8 round trip per poll).
 */
export function evaluationStatusRoute(deps: RouteDeps): Route {
  return {
    ...GET_EVALUATION,
    handle(_req, ctx) {
      const view = deps.store.evaluations.view(ctx.params['id']!);
      const orgId = ctx.key!.org_id;
      const watermark = ctx.watermark!;
      return isPromise(view) ? view.then((v) => answer(v, orgId, watermark)) : answer(view, orgId, watermark);
    },
  };
  /** The answer for a stored view (synchronous on LMDB, after the read on Redis). */
  function answer(view: EvaluationView | undefined, orgId: string, watermark: string): ApiResponse {
    if (!view || (view.expiresAt !== null && view.expiresAt <= deps.now())) return fail(API_ERRORS.evaluationNotFound);
    if (view.orgId !== orgId) return fail(API_ERRORS.evaluationForbidden);
    // spec §2 lists the batch-level `error` outside `data`; it is sent in both places. okBytes
    // copies the view out of the store's read buffer before anything else reads the store.
    return okBytes(view.json, watermark, view.errorJson === null ? '' : `,"error":${view.errorJson}`);
  }
}
