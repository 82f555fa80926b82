/** @module api/views/evaluation: bodies of `POST /evaluate` and `GET /evaluations/{id}` (spec §2 "Evaluation status view", §4). */
import type { EvaluationRecord } from '../../model/records.js';

/** The `data` JSON of GET /evaluations/{id} for a record (spec §2 Evaluation status view). */
export function renderEvaluationView(record: EvaluationRecord): string {
  const data: Record<string, unknown> = {
    evaluation_id: record.evaluation_id,
    status: record.status,
    total_scenarios: record.total_scenarios,
    completed: record.completed,
    created_at: record.created_at,
    completed_at: record.completed_at,
  };
  // Issue 17: the governance context it ran with, and why it ran when the service started it.
  if (record.governance) data['governance'] = record.governance;
  if (record.trigger) data['trigger'] = record.trigger;
  if (record.status === 'complete') data['scenarios'] = record.scenarios;
  if (record.status === 'error') data['error'] = record.error;
  return JSON.stringify(data);
}

/** `data` of POST /evaluate (`SubmitResult`): the new evaluation, and the result token of a stored batch. */
export function submitView(record: EvaluationRecord, resultToken: string | null): Record<string, unknown> {
  const data: Record<string, unknown> = {
    evaluation_id: record.evaluation_id,
    status: record.status,
    total_scenarios: record.total_scenarios,
  };
  if (resultToken !== null) data['result_token'] = resultToken;
  return data;
}
