/**
 * @module store/evaluations/retirement: when an evaluation retires, the time the completion index of
 * every backend is ordered by (`EvaluationsRepository.purgeRetired`, `EVALUATION_RETENTION_DAYS`).
 */
import type { EvaluationRecord } from '../../model/records.js';

/** True for `complete` and `error`: the states an evaluation never leaves. */
export const isTerminal = (record: EvaluationRecord): boolean =>
  record.status === 'complete' || record.status === 'error';

/**
 * Epoch ms at which `record` retired: its `completed_at`, or for a terminal record written without
 * one its `updated_at` (the time of its terminal write). Null when retention does not apply: an
 * open evaluation (never deleted by retention), or an ephemeral one (it has `expires_at`, and the
 * expiry purge deletes it after `EPHEMERAL_TTL_S`, far sooner), or an unreadable time.
 */
export function retiredAtMs(record: EvaluationRecord): number | null {
  if (record.expires_at !== null || !isTerminal(record)) return null;
  const ms = Date.parse(record.completed_at ?? record.updated_at);
  return Number.isFinite(ms) ? ms : null;
}
