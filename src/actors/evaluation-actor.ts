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
import { putEvaluation } from './evaluation-view.js';

/** Messages of an evaluation actor. */
export type EvaluationMessage =
  | { readonly type: 'started' }
  | { readonly type: 'scenario-finished'; readonly index: number; readonly result: ScenarioTaskResult | TaskFailure }
  | { readonly type: 'timed-out' };

/** Observers of the lifecycle (metrics, webhooks, rollups). */
export interface EvaluationObserver {
  scenarioFinished?(record: EvaluationRecord, index: number, result: ScenarioTaskResult | TaskFailure): void;
  /** Runs inside the write transaction that makes the evaluation terminal (the webhook outbox). */
  terminalInTransaction?(record: EvaluationRecord): void;
  /** After the terminal state is committed and flushed. */
  terminal?(record: EvaluationRecord): void;
  /** Latency of each write transaction, in seconds. */
  committed?(seconds: number): void;
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
  private halted = false;
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

  /** Stops handling messages (shutdown): nothing more is written; the open state in LMDB is resumed at the next start. */
  halt(): void {
    this.halted = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Enqueues a message; messages are handled in order, one at a time. */
  send(message: EvaluationMessage): void {
    if (this.halted) return;
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
        const summary = message.result.ok ? message.result.summary : failedSummary(this.record.scenario_ids[message.index]!, 'name' in message.result ? message.result.name : this.record.scenario_ids[message.index]!, message.result.message);
        const scenarios = this.record.scenarios.slice();
        scenarios[message.index] = summary;
        const next: EvaluationRecord = { ...this.record, scenarios, completed: this.record.completed + 1, updated_at: nowIso };
        const done = next.completed === next.total_scenarios;
        const final: EvaluationRecord = done ? { ...next, status: 'complete', completed_at: nowIso } : next;
        // One transaction: the scenario's results, the rollup and the evaluation record land together,
        // so no crash can leave a stored result without its summary (or the reverse).
        this.commit(final, () => this.persistScenario(message.index, message.result, nowIso));
        this.observer.scenarioFinished?.(final, message.index, message.result);
        return;
      }
      case 'timed-out': {
        if (this.record.scenarios.every((s) => s !== null)) { // recovered with every result already committed
          this.finish({ ...this.record, completed: this.record.total_scenarios, status: 'complete', completed_at: nowIso, updated_at: nowIso });
          return;
        }
        const anyResult = this.record.scenarios.some((s) => s !== null && s.error === undefined);
        const scenarios = this.record.scenarios.map((s, i) => s ?? failedSummary(this.record.scenario_ids[i]!, this.record.scenario_ids[i]!, 'evaluation timed out'));
        if (anyResult) this.finish({ ...this.record, scenarios, completed: scenarios.length, status: 'complete', completed_at: nowIso, updated_at: nowIso });
        else this.finish({ ...this.record, status: 'error', error: `evaluation did not finish within ${this.timeoutMs} ms`, completed_at: nowIso, updated_at: nowIso });
        return;
      }
    }
  }

  /**
   * Writes a stored scenario's results and its rollup contribution (inside the caller's transaction).
   * Ephemeral batches write nothing here: they have no result token and no stored scenario, so only
   * their summaries (in the evaluation record) are ever read.
   */
  private persistScenario(index: number, result: ScenarioTaskResult | TaskFailure, nowIso: string): void {
    if (!result.ok || this.record.kind !== 'stored') return;
    const scenarioId = this.record.scenario_ids[index]!;
    const { org_id: orgId, evaluation_id: evaluationId } = this.record;
    void this.store.evaluationResults.put(k(evaluationId, index), result.resultsJson);
    if (!this.store.scenarios.get(k(orgId, scenarioId))) return; // deleted meanwhile: nothing to roll up
    const key = k(orgId, scenarioId);
    const previous = this.store.results.get(key);
    if (previous && previous.evaluated_at > nowIso) return; // a newer evaluation already landed
    void this.store.results.put(key, { evaluation_id: evaluationId, evaluated_at: nowIso, version: this.record.versions[index] ?? 0, remediation: result.remediation, contribution: result.contribution });
    void this.store.resultViews.put(key, Buffer.from(result.resultsJson, 'utf8'));
    updateRollup(this.store, orgId, previous?.contribution ?? null, result.contribution, nowIso);
  }

  private write(next: EvaluationRecord): void {
    this.commit(next, () => undefined);
  }

  private finish(next: EvaluationRecord): void {
    this.commit(next, () => undefined);
  }

  /**
   * Commits `next` (plus `extra` writes) in one transaction. A terminal record also removes the
   * evaluation from the open index and, through the observer, enqueues its events (outbox) in the
   * same transaction. Clients read the store, so they see a state only once it is committed.
   */
  private commit(next: EvaluationRecord, extra: () => void): void {
    const terminal = next.status === 'complete' || next.status === 'error';
    this.record = next;
    if (terminal && this.timer) clearTimeout(this.timer);
    const t0 = performance.now();
    const committed = this.store.root.transaction(() => {
      extra();
      putEvaluation(this.store, next);
      if (terminal) {
        void this.store.openEvaluations.remove(next.evaluation_id);
        this.observer.terminalInTransaction?.(next);
      }
    });
    void committed.then(() => this.observer.committed?.((performance.now() - t0) / 1000));
    if (terminal) {
      void committed.then(() => this.store.flushed()).then(() => {
        this.observer.terminal?.(next);
        this.resolveDone();
      });
    }
  }
}

/** Summary of a scenario that failed alone (spec §3 rule 1: the batch still completes). */
export function failedSummary(id: string, name: string, error: string): ScenarioSummary {
  return { id, name, score: 0, violations: 0, critical: 0, compliance_gaps: [], module_violations: [], error };
}
