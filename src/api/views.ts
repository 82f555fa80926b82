/**
 * @module api/views: every response body the API renders from stored data (spec §2), in one place:
 * the evaluation status view, scenario results, token redemption, remediation and the rollup. Pure;
 * used by the workers (which pre-render results), the store (which keeps pre-rendered views) and
 * the routes. The OpenAPI components (server/openapi/components.ts) describe these shapes, and the
 * drift test checks real responses against them.
 */
import type { EvaluationRecord } from '../store/records.js';

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
