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

/** Writes a record and its pre-rendered view (call inside a write transaction). */
export function putEvaluation(store: Store, record: EvaluationRecord): void {
  void store.evaluations.put(record.evaluation_id, record);
  void store.evaluationViews.put(record.evaluation_id, `${record.org_id}\n${record.expires_at ?? ''}\n${renderEvaluationView(record)}`);
}

/** A stored view split into its parts, or undefined. */
export function readEvaluationView(store: Store, id: string): { orgId: string; expiresAt: number | null; json: string } | undefined {
  const raw = store.evaluationViews.get(id);
  if (raw === undefined) return undefined;
  const a = raw.indexOf('\n');
  const b = raw.indexOf('\n', a + 1);
  const exp = raw.slice(a + 1, b);
  return { orgId: raw.slice(0, a), expiresAt: exp === '' ? null : Number(exp), json: raw.slice(b + 1) };
}
