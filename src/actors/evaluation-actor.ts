/**
 * @module actors/evaluation-actor: one actor per evaluation owns its state machine
 * (`pending → processing → complete | error`, spec §3), fans scenarios out to the pool, and writes
 * every transition to LMDB before clients can see it. Messages are processed one at a time.
 */
import type { DeliveryRecord, EvaluationRecord, WebhookRecord } from '../model/records.js';
import type { ScenarioResultWrite } from '../store/evaluations/repository.js';
import type { Store } from '../store/store.js';
import type { EvaluationPool, TaskFailure } from './pool.js';
import { timedOut, withOutcomes } from './transitions.js';
import { runChunk } from './run-chunk.js';
import type { GovernanceContexts } from './governance.js';
import type { ChunkScenario, ScenarioTask, ScenarioTaskResult } from './worker-protocol.js';

/** Messages of an evaluation actor. */
export type EvaluationMessage =
  | { readonly type: 'started' }
  | { readonly type: 'scenario-finished'; readonly index: number; readonly result: ScenarioTaskResult | TaskFailure }
  | { readonly type: 'timed-out' };

/** Observers of the lifecycle (metrics, webhooks). */
export interface EvaluationObserver {
  scenarioFinished?(record: EvaluationRecord, index: number, result: ScenarioTaskResult | TaskFailure): void;
  /**
   * The events of a terminal evaluation, given its organization's webhook endpoints: stored in the
   * outbox in the transaction that makes it terminal (webhooks/dispatcher `deliveriesFor`).
   */
  deliveries?(record: EvaluationRecord, endpoints: readonly WebhookRecord[]): readonly DeliveryRecord[];
  /** After the terminal state is committed and flushed; `webhookIds` are the endpoints that got a delivery. */
  terminal?(record: EvaluationRecord, webhookIds: readonly string[]): void;
  /** Latency of each write transaction, in seconds. */
  committed?(seconds: number): void;
  /**
   * A write transaction of this evaluation failed (a full map, a failing observer): the actor then
   * tries once to end the evaluation as `error`; `final` is true when that write failed too, and the
   * evaluation stays open in LMDB until recovery resumes it at the next start.
   */
  commitFailed?(record: EvaluationRecord, error: unknown, final: boolean): void;
  /** The supervisor's retention deleted `count` evaluations (one round of `Evaluations.purgeRetired`). */
  retired?(count: number): void;
}

/** The `error` of an evaluation whose state could not be stored. */
export const STORAGE_FAILED_MESSAGE = 'the evaluation could not be stored';

/** One scenario to evaluate. */
export interface ScenarioInput {
  readonly scenarioId: string;
  readonly blueprint: Uint8Array;
  readonly fault?: ScenarioTask['fault'];
}

/**
 * Scenarios per pool task. Small enough that a large evaluation still spreads over every worker
 * and a failed chunk re-runs little; large enough that dispatch is paid once per ten scenarios.
 */
export const CHUNK_SIZE = 10;

/**
 * Longest time (ms) an outcome waits to be committed together with the ones after it. Clients poll
 * with seconds of backoff (spec §3), so progress a few ms late is invisible; a crash loses at most
 * this window's outcomes, which recovery re-runs (their results were never stored).
 */
export const COMMIT_WINDOW_MS = 10;

/** Owns one evaluation until it is terminal. */
export class EvaluationActor {
  private record: EvaluationRecord;
  private readonly mailbox: EvaluationMessage[] = [];
  private draining = false;
  private halted = false;
  private timer: NodeJS.Timeout | null = null;
  /** Outcomes received in this turn of the event loop, committed together (one transaction, one view render). */
  private finished: { index: number; result: ScenarioTaskResult | TaskFailure }[] = [];
  /** The pending commit of `finished` (a window timer, or an immediate once every outcome is in). */
  private flush: { readonly timer: NodeJS.Timeout | NodeJS.Immediate; readonly last: boolean } | null = null;
  /** The last record a transaction committed (what clients can see), the base of a storage-failure record. */
  private committedRecord: EvaluationRecord;
  /** The `error` record written after a failed commit, once (see `commitFailed`). */
  private failureRecord: EvaluationRecord | null = null;
  private resolveDone!: () => void;
  /** Resolves once the evaluation is terminal and flushed. */
  readonly done: Promise<void> = new Promise((r) => {
    this.resolveDone = r;
  });

  constructor(
    private readonly store: Store,
    private readonly pool: EvaluationPool,
    initial: EvaluationRecord,
    private readonly inputs: readonly (ScenarioInput | null)[],
    private readonly now: () => number,
    private readonly timeoutMs: number,
    /** The governance context and waivers of each chunk (issue 17). */
    private readonly governance: GovernanceContexts,
    private readonly observer: EvaluationObserver = {},
  ) {
    this.record = initial;
    this.committedRecord = initial;
  }

  /**
   * Starts processing: `pending → processing`, then the scenarios still without a result go to the
   * pool in chunks of CHUNK_SIZE; those of a chunk that failed as a whole are re-run one per chunk.
   */
  start(): void {
    this.send({ type: 'started' });
    this.timer = setTimeout(() => this.send({ type: 'timed-out' }), this.timeoutMs);
    this.timer.unref();
    const todo: ChunkScenario[] = [];
    this.inputs.forEach((input, index) => {
      if (!input || this.record.scenarios[index] !== null) return;
      todo.push({
        index,
        scenarioId: input.scenarioId,
        blueprint: input.blueprint,
        ...(input.fault ? { fault: input.fault } : {}),
      });
    });
    for (let i = 0; i < todo.length; i += CHUNK_SIZE) this.runChunk(todo.slice(i, i + CHUNK_SIZE));
  }

  /**
   * Runs a chunk (actors/run-chunk: a failed chunk's scenarios are re-run alone); outcomes arrive as
   * messages. The pool reports failures as outcomes, so a rejection here is a fault of the actor's
   * own handling: it ends the evaluation as `error` (as a failed write does) instead of the process.
   */
  private runChunk(chunk: readonly ChunkScenario[]): void {
    const evaluatedAt = new Date(this.now()).toISOString();
    this.governance
      .forChunk(this.record, chunk, evaluatedAt)
      .then((prepared) =>
        runChunk(
          this.pool,
          this.record.org_id,
          this.record.evaluation_id,
          evaluatedAt,
          prepared.governance,
          prepared.chunk,
          (index, result) => this.send({ type: 'scenario-finished', index, result }),
          () => this.halted,
        ),
      )
      .catch((error: unknown) => this.commitFailed(this.record, error));
  }

  /**
   * Commits the outcomes received so far once COMMIT_WINDOW_MS has passed since the first of them,
   * or at the end of this event-loop turn when they are the evaluation's last: a batch whose
   * chunk finishes within the window is committed once, with its terminal state, instead of once
   * per turn in which outcomes arrived (each commit re-encodes the record and the rollup).
   */
  private scheduleCommit(): void {
    const last = this.record.completed + this.finished.length >= this.record.total_scenarios;
    if (this.flush && (this.flush.last || !last)) return;
    if (this.flush) clearTimeout(this.flush.timer as NodeJS.Timeout);
    const run = () => {
      this.flush = null;
      if (!this.halted) this.commitFinished();
    };
    this.flush = last ? { timer: setImmediate(run), last } : { timer: setTimeout(run, COMMIT_WINDOW_MS), last };
  }

  private get isTerminal(): boolean {
    return this.record.status === 'complete' || this.record.status === 'error';
  }

  /** Stops handling messages (shutdown): nothing more is written; the open state in LMDB is resumed at the next start. */
  halt(): void {
    this.halted = true;
    this.finished = [];
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
        if (this.record.scenarios[message.index] !== null || this.finished.some((f) => f.index === message.index))
          return;
        this.finished.push({ index: message.index, result: message.result });
        this.scheduleCommit();
        return;
      }
      case 'timed-out': {
        this.commitFinished();
        const next = timedOut(this.record, nowIso, this.timeoutMs); // undefined when the outcomes just committed were the last
        if (next) this.write(next);
        return;
      }
    }
  }

  /**
   * Commits every outcome received since the last commit in one transaction: the scenarios'
   * results, the rollup and the evaluation record land together, so no crash can leave a stored
   * result without its summary (or the reverse). Ephemeral batches store no results: they have no
   * result token and no stored scenario, so only their summaries (in the record) are ever read.
   */
  private commitFinished(): void {
    if (this.finished.length === 0 || this.isTerminal) return;
    const batch = this.finished;
    this.finished = [];
    const change = withOutcomes(this.record, batch, new Date(this.now()).toISOString());
    if (!change) return;
    this.commit(change.record, change.results);
    for (const { index, result } of batch) this.observer.scenarioFinished?.(change.record, index, result);
  }

  /** Commits a state change that stores no results (`processing`, a terminal state without new outcomes). */
  private write(next: EvaluationRecord): void {
    this.commit(next, []);
  }

  /**
   * Commits `next` with `results` in one transaction (the repository shares it with the other
   * actors' writes of this event-loop turn). A terminal record also leaves the open index and
   * enqueues its events (outbox) in the same transaction. Clients read the store, so they see a
   * state only once it is committed.
   */
  private commit(next: EvaluationRecord, results: readonly ScenarioResultWrite[]): void {
    const terminal = next.status === 'complete' || next.status === 'error';
    this.record = next;
    if (terminal && this.timer) clearTimeout(this.timer);
    const t0 = performance.now();
    const observer = this.observer;
    const committed = this.store.evaluations.commit({
      record: next,
      results,
      // The error record of a failed commit has no events (only complete evaluations have): it must not fail the same way.
      ...(terminal && observer.deliveries && next !== this.failureRecord
        ? { deliveries: (endpoints: readonly WebhookRecord[]) => observer.deliveries!(next, endpoints) }
        : {}),
    });
    committed.then(
      () => {
        if (this.failureRecord === null || next === this.failureRecord) this.committedRecord = next;
        this.observer.committed?.((performance.now() - t0) / 1000);
      },
      (error: unknown) => this.commitFailed(next, error),
    );
    if (terminal) {
      // A failed commit is handled above; a failed flush leaves the record committed but not durable, and the actor done.
      committed
        .then(async (receipt) => {
          await this.store.flushed();
          return receipt;
        })
        .then(
          (receipt) => {
            this.observer.terminal?.(next, receipt.webhookIds);
            this.resolveDone();
          },
          () => {
            if (next === this.failureRecord) this.resolveDone();
          },
        );
    }
  }

  /**
   * A transaction with `attempted` failed: its writes were rolled back, so clients still see the
   * last committed record. Ends the evaluation as `error` on top of that record (one more write,
   * which also removes it from the open index); when that write fails too, the actor stops and the
   * evaluation stays open in LMDB, where recovery resumes it at the next start. Never throws.
   */
  private commitFailed(attempted: EvaluationRecord, error: unknown): void {
    const final = attempted === this.failureRecord;
    this.observer.commitFailed?.(attempted, error, final);
    if (final) {
      this.halt();
      this.resolveDone();
      return;
    }
    if (this.failureRecord !== null) return; // an earlier commit of this turn failed too: its error record is on its way
    const nowIso = new Date(this.now()).toISOString();
    this.finished = [];
    this.failureRecord = {
      ...this.committedRecord,
      status: 'error',
      error: STORAGE_FAILED_MESSAGE,
      completed_at: nowIso,
      updated_at: nowIso,
    };
    this.commit(this.failureRecord, []);
  }
}
