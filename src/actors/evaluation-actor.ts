/**
 * @module actors/evaluation-actor: one actor per evaluation owns its state machine
 * (`pending → processing → complete | error`, spec §3), fans scenarios out to the pool, and writes
 * every transition to LMDB before clients can see it. Messages are processed one at a time.
 */
import type { EvaluationRecord, ScenarioSummary } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { EvaluationPool, TaskFailure } from './pool.js';
import type { ScenarioTask, ScenarioTaskResult } from './worker-protocol.js';
import { k } from '../store/store.js';
import { updateRollup } from './rollup.js';

/** Messages of an evaluation actor. */
export type EvaluationMessage =
  | { readonly type: 'started' }
  | { readonly type: 'scenario-finished'; readonly index: number; readonly result: ScenarioTaskResult | TaskFailure }
  | { readonly type: 'timed-out' };

/** Observers of the lifecycle (metrics, webhooks, rollups). */
export interface EvaluationObserver {
  scenarioFinished?(record: EvaluationRecord, index: number, result: ScenarioTaskResult | TaskFailure): void;
  terminal?(record: EvaluationRecord): void;
}

/** One scenario to evaluate. */
export interface ScenarioInput {
  readonly scenarioId: string;
  readonly blueprint: Uint8Array;
  readonly fault?: ScenarioTask['fault'];
}

/** Owns one evaluation until it is terminal. */
export class EvaluationActor {
  private record: EvaluationRecord;
  private readonly mailbox: EvaluationMessage[] = [];
  private draining = false;
  private timer: NodeJS.Timeout | null = null;
  private resolveDone!: () => void;
  /** Resolves once the evaluation is terminal and flushed. */
  readonly done: Promise<void> = new Promise((r) => { this.resolveDone = r; });

  constructor(
    private readonly store: Store,
    private readonly pool: EvaluationPool,
    initial: EvaluationRecord,
    private readonly inputs: readonly (ScenarioInput | null)[],
    private readonly now: () => number,
    private readonly timeoutMs: number,
    private readonly observer: EvaluationObserver = {},
  ) {
    this.record = initial;
  }

  /** The current state (what clients see once written). */
  get state(): EvaluationRecord {
    return this.record;
  }

  /** Starts processing: `pending → processing`, then one pool task per scenario still without a result. */
  start(): void {
    this.send({ type: 'started' });
    this.timer = setTimeout(() => this.send({ type: 'timed-out' }), this.timeoutMs);
    this.timer.unref();
    this.inputs.forEach((input, index) => {
      if (!input || this.record.scenarios[index] !== null) return;
      void this.pool.runScenario({
        kind: 'scenario', scenarioId: input.scenarioId, blueprint: input.blueprint, evaluationId: this.record.evaluation_id,
        evaluatedAt: new Date(this.now()).toISOString(), ...(input.fault ? { fault: input.fault } : {}),
      }).then((result) => this.send({ type: 'scenario-finished', index, result }));
    });
  }

  /** Enqueues a message; messages are handled in order, one at a time. */
  send(message: EvaluationMessage): void {
    this.mailbox.push(message);
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.mailbox.length > 0) this.handle(this.mailbox.shift()!);
    } finally {
      this.draining = false;
    }
  }

  private handle(message: EvaluationMessage): void {
    if (this.record.status === 'complete' || this.record.status === 'error') return;
    const nowIso = new Date(this.now()).toISOString();
    switch (message.type) {
      case 'started':
        this.write({ ...this.record, status: 'processing', updated_at: nowIso });
        return;
      case 'scenario-finished': {
        if (this.record.scenarios[message.index] !== null) return;
        const summary = this.persistScenario(message.index, message.result, nowIso);
        const scenarios = this.record.scenarios.slice();
        scenarios[message.index] = summary;
        const next = { ...this.record, scenarios, completed: this.record.completed + 1, updated_at: nowIso };
        this.observer.scenarioFinished?.(next, message.index, message.result);
        if (next.completed === next.total_scenarios) this.finish({ ...next, status: 'complete', completed_at: nowIso });
        else this.write(next);
        return;
      }
      case 'timed-out': {
        const anyResult = this.record.scenarios.some((s) => s !== null && s.error === undefined);
        const scenarios = this.record.scenarios.map((s, i) => s ?? failedSummary(this.record.scenario_ids[i]!, this.record.scenario_ids[i]!, 'evaluation timed out'));
        if (anyResult) this.finish({ ...this.record, scenarios, completed: scenarios.length, status: 'complete', completed_at: nowIso, updated_at: nowIso });
        else this.finish({ ...this.record, status: 'error', error: `evaluation did not finish within ${this.timeoutMs} ms`, completed_at: nowIso, updated_at: nowIso });
        return;
      }
    }
  }

  private persistScenario(index: number, result: ScenarioTaskResult | TaskFailure, nowIso: string): ScenarioSummary {
    const scenarioId = this.record.scenario_ids[index]!;
    if (!result.ok) return failedSummary(scenarioId, 'name' in result ? result.name : scenarioId, result.message);
    const { org_id: orgId, evaluation_id: evaluationId, kind } = this.record;
    const version = this.record.versions[index] ?? 0;
    void this.store.root.transaction(() => {
      void this.store.evaluationResults.put(k(evaluationId, index), result.resultsJson);
      if (kind !== 'stored' || !this.store.scenarios.get(k(orgId, scenarioId))) return; // deleted meanwhile: nothing to roll up
      const key = k(orgId, scenarioId);
      const previous = this.store.results.get(key);
      if (previous && previous.evaluated_at > nowIso) return; // a newer evaluation already landed
      void this.store.results.put(key, { evaluation_id: evaluationId, evaluated_at: nowIso, version, json: result.resultsJson, remediation: result.remediation, contribution: result.contribution });
      updateRollup(this.store, orgId, previous?.contribution ?? null, result.contribution, nowIso);
    });
    return result.summary;
  }

  private write(next: EvaluationRecord): void {
    this.record = next;
    void this.store.evaluations.put(next.evaluation_id, next);
  }

  private finish(next: EvaluationRecord): void {
    if (this.timer) clearTimeout(this.timer);
    this.record = next;
    void this.store.root.transaction(() => {
      void this.store.evaluations.put(next.evaluation_id, next);
      void this.store.openEvaluations.remove(next.evaluation_id);
    }).then(() => this.store.flushed()).then(() => {
      this.observer.terminal?.(next);
      this.resolveDone();
    });
  }
}

/** Summary of a scenario that failed alone (spec §3 rule 1: the batch still completes). */
export function failedSummary(id: string, name: string, error: string): ScenarioSummary {
  return { id, name, score: 0, violations: 0, critical: 0, compliance_gaps: [], module_violations: [], error };
}
