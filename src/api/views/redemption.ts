/** @module api/views/redemption: bodies of `POST /results/fetch` (spec §3 rule 4, §4; design notes "Result tokens"). */
import type { EvaluationRecord } from '../../model/records.js';

const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}');

/** `data` while the evaluation runs: the token is not consumed. */
export function redemptionPendingView(record: EvaluationRecord): Record<string, unknown> {
  return {
    evaluation_id: record.evaluation_id,
    status: 'processing',
    message: `Evaluation in progress (${record.completed}/${record.total_scenarios} scenarios); retry later. The token was not consumed.`,
  };
}

/** `data` of a failed evaluation: the token is not consumed. */
export function redemptionErrorView(record: EvaluationRecord): Record<string, unknown> {
  return {
    evaluation_id: record.evaluation_id,
    status: 'error',
    error: record.error,
    message: 'The evaluation failed; the token was not consumed.',
  };
}

/**
 * `data` of a redeemed token as UTF-8 JSON bytes: each scenario's stored results joined as bytes,
 * never decoded; a scenario without stored results (it failed alone) gets an entry with its error.
 * @param storedResults the stored results JSON of scenario `index`, or undefined.
 */
export function redemptionView(
  record: EvaluationRecord,
  storedResults: (index: number) => Uint8Array | undefined,
): Buffer {
  const parts: Uint8Array[] = [
    Buffer.from(`{"evaluation_id":${JSON.stringify(record.evaluation_id)},"status":"complete","scenarios":[`),
  ];
  record.scenario_ids.forEach((sid, i) => {
    if (i > 0) parts.push(COMMA);
    const stored = storedResults(i);
    if (stored) {
      parts.push(stored);
      return;
    }
    const summary = record.scenarios[i];
    parts.push(
      Buffer.from(
        JSON.stringify({
          scenario_id: sid,
          name: summary?.name ?? sid,
          error: summary?.error ?? 'no result',
          violations: [],
          module_summary: [],
          evaluated_codes: [],
          passing_count: 0,
          failing_count: 0,
        }),
      ),
    );
  });
  parts.push(CLOSE);
  return Buffer.concat(parts);
}
