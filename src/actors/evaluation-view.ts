/** @module actors/evaluation-view: the status view of an evaluation (spec §2), rendered once per state change. */
import type { EvaluationRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { k, readFast } from '../store/store.js';

/** The `data` JSON of GET /evaluations/{id} for a record (spec §2 Evaluation status view). */
export function renderEvaluationView(record: EvaluationRecord): string {
  const data: Record<string, unknown> = {
    evaluation_id: record.evaluation_id, status: record.status, total_scenarios: record.total_scenarios, completed: record.completed,
    created_at: record.created_at, completed_at: record.completed_at,
  };
  if (record.status === 'complete') data['scenarios'] = record.scenarios;
  if (record.status === 'error') data['error'] = record.error;
  return JSON.stringify(data);
}

/**
 * Writes a record and its pre-rendered view (call inside a write transaction). The view is
 * `<org>\n<expires_at ms or "">\n<batch error as JSON or "">\n<data JSON>`.
 */
export function putEvaluation(store: Store, record: EvaluationRecord): void {
  void store.evaluations.put(record.evaluation_id, record);
  const error = record.status === 'error' ? JSON.stringify(record.error) : '';
  void store.evaluationViews.put(record.evaluation_id, Buffer.from(`${record.org_id}\n${record.expires_at ?? ''}\n${error}\n${renderEvaluationView(record)}`, 'utf8'));
}

/**
 * Removes a record and every derived entry (purge, admin delete; call inside a write transaction).
 * A scenario's results that are still its latest (GET /scenarios/{id}/results points at them) stay.
 */
export function removeEvaluation(store: Store, record: EvaluationRecord): void {
  void store.evaluations.remove(record.evaluation_id);
  void store.evaluationViews.remove(record.evaluation_id);
  void store.openEvaluations.remove(record.evaluation_id);
  for (let i = 0; i < record.total_scenarios; i++) {
    const key = k(record.evaluation_id, i);
    const sid = record.scenario_ids[i];
    if (record.kind === 'stored' && sid !== undefined && store.latestResults.get(k(record.org_id, sid)) === key) continue;
    void store.evaluationResults.remove(key);
  }
}

/**
 * A stored view split into its parts, or undefined: `json` is the `data` JSON as UTF-8 bytes (sent
 * as is), `errorJson` the batch-level error JSON (`null` when none). `json` is a view of LMDB's
 * shared read buffer: valid until the next read of the store, so the caller copies it (into the
 * response envelope) before reading anything else.
 */
export function readEvaluationView(store: Store, id: string): { orgId: string; expiresAt: number | null; errorJson: string | null; json: Buffer } | undefined {
  const raw = readFast(store.evaluationViews, id);
  if (raw === undefined) return undefined;
  const a = raw.indexOf(NEWLINE);
  const b = raw.indexOf(NEWLINE, a + 1);
  const c = raw.indexOf(NEWLINE, b + 1);
  return {
    orgId: raw.toString('utf8', 0, a),
    expiresAt: b === a + 1 ? null : Number(raw.toString('latin1', a + 1, b)),
    errorJson: c === b + 1 ? null : raw.toString('utf8', b + 1, c),
    json: raw.subarray(c + 1),
  };
}

const NEWLINE = 0x0a;
