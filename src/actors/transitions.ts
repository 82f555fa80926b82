/**
 * @module actors/transitions: the state changes of an evaluation record (spec §3: `pending →
 * processing → complete | error`), as pure functions of the stored record. The evaluation actor
 * (one process owns an evaluation) and the chunk jobs of cluster mode (chunks of one evaluation
 * finish on several nodes, each merging its outcomes into the stored record) both use them, so the
 * two paths cannot disagree on what a record becomes.
 */
import type { EvaluationRecord } from '../model/records.js';
import type { EvaluationCommit, ScenarioResultWrite } from '../store/evaluations/repository.js';
import type { TaskFailure } from './task-failure.js';
import type { ScenarioTaskResult } from './worker-protocol.js';
import { failedSummary } from '../api/views/scenario-results.js';

/** The outcome of one scenario of an evaluation. */
export interface ScenarioOutcome {
  /** Index of the scenario in `scenario_ids`. */
  readonly index: number;
  readonly result: ScenarioTaskResult | TaskFailure;
}

/** True once the record is `complete` or `error`. */
export function isTerminal(record: EvaluationRecord): boolean {
  return record.status === 'complete' || record.status === 'error';
}

/** `pending → processing` (undefined when the record is past `pending`). */
export function started(record: EvaluationRecord, nowIso: string): EvaluationRecord | undefined {
  return record.status === 'pending' ? { ...record, status: 'processing', updated_at: nowIso } : undefined;
}

/**
 * Adds `outcomes` to `record`: each scenario's summary, and for stored batches its results to store
 * (ephemeral batches store none: they have no result token and no stored scenario). A scenario that
 * already has an outcome keeps it (a chunk run twice, after a node died mid-chunk, counts once);
 * the record becomes `complete` with its last outcome (spec §3 rule 1: failed scenarios count).
 * @returns the change, or undefined when nothing is new or the record is terminal.
 */
export function withOutcomes(
  record: EvaluationRecord,
  outcomes: readonly ScenarioOutcome[],
  nowIso: string,
): { readonly record: EvaluationRecord; readonly results: readonly ScenarioResultWrite[] } | undefined {
  if (isTerminal(record)) return undefined;
  const scenarios = record.scenarios.slice();
  const results: ScenarioResultWrite[] = [];
  let added = 0;
  for (const { index, result } of outcomes) {
    if (scenarios[index] !== null || index >= record.total_scenarios) continue;
    const id = record.scenario_ids[index]!;
    scenarios[index] = result.ok
      ? result.summary
      : failedSummary(id, 'name' in result ? result.name : id, result.message);
    added++;
    if (result.ok && record.kind === 'stored')
      results.push({
        index,
        results: result.results,
        remediation: result.remediation,
        contribution: result.contribution,
        evaluatedAt: nowIso,
      });
  }
  if (added === 0) return undefined;
  const next: EvaluationRecord = {
    ...record,
    status: 'processing',
    scenarios,
    completed: record.completed + added,
    updated_at: nowIso,
  };
  return {
    record: next.completed === next.total_scenarios ? { ...next, status: 'complete', completed_at: nowIso } : next,
    results,
  };
}

/**
 * The record of an evaluation still open when its time budget ran out: `complete` when every
 * scenario has an outcome (recovered with every result committed) or when some have results (the
 * others get `evaluation timed out`), else `error`. Undefined when it is already terminal.
 */
export function timedOut(record: EvaluationRecord, nowIso: string, timeoutMs: number): EvaluationRecord | undefined {
  if (isTerminal(record)) return undefined;
  const done = { completed_at: nowIso, updated_at: nowIso };
  if (record.scenarios.every((s) => s !== null))
    return { ...record, ...done, completed: record.total_scenarios, status: 'complete' };
  if (record.scenarios.some((s) => s !== null && s.error === undefined)) {
    const scenarios = record.scenarios.map(
      (s, i) => s ?? failedSummary(record.scenario_ids[i]!, record.scenario_ids[i]!, 'evaluation timed out'),
    );
    return { ...record, ...done, scenarios, completed: scenarios.length, status: 'complete' };
  }
  return { ...record, ...done, status: 'error', error: `evaluation did not finish within ${timeoutMs} ms` };
}

/** A change that stores `record` alone (no results). */
export function recordOnly(record: EvaluationRecord): EvaluationCommit {
  return { record, results: [] };
}
