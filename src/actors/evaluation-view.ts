/** @module actors/evaluation-view: the status view of an evaluation (spec §2), rendered once per state change. */
import type { EvaluationRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

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
  void store.evaluationViews.put(record.evaluation_id, `${record.org_id}\n${record.expires_at ?? ''}\n${error}\n${renderEvaluationView(record)}`);
}

/** Removes a record and every derived entry (purge, admin delete; call inside a write transaction). */
export function removeEvaluation(store: Store, record: EvaluationRecord): void {
  void store.evaluations.remove(record.evaluation_id);
  void store.evaluationViews.remove(record.evaluation_id);
  void store.openEvaluations.remove(record.evaluation_id);
  for (let i = 0; i < record.total_scenarios; i++) void store.evaluationResults.remove(`${record.evaluation_id}\u0000${i}`);
}

/** A stored view split into its parts, or undefined. `error` is the batch-level error JSON (`null` when none). */
export function readEvaluationView(store: Store, id: string): { orgId: string; expiresAt: number | null; errorJson: string | null; json: string } | undefined {
  const raw = store.evaluationViews.get(id);
  if (raw === undefined) return undefined;
  const a = raw.indexOf('\n');
  const b = raw.indexOf('\n', a + 1);
  const c = raw.indexOf('\n', b + 1);
  const exp = raw.slice(a + 1, b);
  const err = raw.slice(b + 1, c);
  return { orgId: raw.slice(0, a), expiresAt: exp === '' ? null : Number(exp), errorJson: err === '' ? null : err, json: raw.slice(c + 1) };
}
