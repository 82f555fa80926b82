/** @module server/routes/overload: the 503 of a submission the evaluation pool does not admit (spec §7, `Evaluation capacity exhausted`). */
import type { PoolAdmission } from '../../actors/pool.js';
import type { ApiResponse } from '../http/types.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';

/** Seconds a client should wait when the pool, or its organization's share of it, is full. */
export const OVERLOAD_RETRY_AFTER_S = 2;

const DETAIL: Readonly<Record<Exclude<PoolAdmission, 'ok'>, string>> = {
  pool_full: 'The evaluation queue is full; retry later',
  share_full:
    "This organization's share of the evaluation queue is full (other organizations are still served); retry later",
};

/**
 * `503 Evaluation capacity exhausted` with `Retry-After` and a detail saying whether the whole queue or
 * this organization's share of it is full (issue 31: an organization over its share waits while the
 * others are served).
 */
export function refuseAdmission(admission: Exclude<PoolAdmission, 'ok'>): ApiResponse {
  return fail(API_ERRORS.overloaded, {
    detail: DETAIL[admission],
    headers: [['retry-after', String(OVERLOAD_RETRY_AFTER_S)]],
  });
}
