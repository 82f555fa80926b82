/**
 * @module store/lmdb/latest-results: the `evaluation-results` entries that `latest-results` points
 * at. An evaluation's delete (admin, retention) keeps the entries that are still a scenario's latest
 * results; once nothing points at them any more they go, so they do not outlive both.
 */
import type { LmdbTables } from './tables.js';
import { LEGACY_PREFIX } from './migrate.js';

/**
 * Removes the `evaluation-results` entry `pointer` (a former `latest-results` value) when no
 * evaluation owns it: its evaluation was deleted while these were a scenario's latest results, or it
 * was moved from the legacy table. Call it inside the write transaction that replaces the pointer or
 * deletes its scenario; an entry whose evaluation still exists stays (that evaluation's own results).
 */
export function releaseLatest(t: LmdbTables, pointer: string | undefined): void {
  if (pointer === undefined) return;
  const owner = pointer.slice(0, pointer.indexOf('\u0000'));
  if (pointer.startsWith(LEGACY_PREFIX) || !t.evaluations.doesExist(owner)) void t.evaluationResults.remove(pointer);
}
