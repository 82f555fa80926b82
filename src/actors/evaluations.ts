/** @module actors/evaluations: creates evaluation actors, supervises them and recovers open evaluations after a restart. */
import { randomUUID } from 'node:crypto';
import type { EvaluationRecord, KeyRecord } from '../model/records.js';
import type { Store } from '../store/store.js';
import type { EvaluationPool, PoolAdmission } from './pool.js';
import type { EvaluationObserver, ScenarioInput } from './evaluation-actor.js';
import { EvaluationActor } from './evaluation-actor.js';
import { GovernanceContexts } from './governance.js';
import { failedSummary } from '../api/views/scenario-results.js';
import type { ChunkQueue, ChunkQueueCounts } from './cluster/chunk-queue.js';

/** Interval of the purge of expired ephemeral evaluations and of retired ones, in ms. */
export const PURGE_INTERVAL_MS = 60_000;
/** Evaluations deleted per retention round (one LMDB write transaction, or one batch of Redis scripts). */
export const RETIRE_ROUND = 1000;
const DAY_MS = 86_400_000;

/** Options of the supervisor. */
export interface EvaluationOptions {
  /** Ephemeral evaluations are purged after this many seconds (design notes: 1 hour). */
  readonly ephemeralTtlS: number;
  /** A batch not terminal after this many ms is closed with a reason. */
  readonly evaluationTimeoutMs: number;
  /**
   * Stored evaluations are deleted this many days after they became terminal, except each scenario's
   * latest results (`EVALUATION_RETENTION_DAYS`); 0 keeps them forever. Default 0.
   */
  readonly retentionDays?: number;
}

/** Supervisor of evaluation actors. */
export class Evaluations {
  private readonly actors = new Map<string, EvaluationActor>();
  private purgeTimer: NodeJS.Timeout | null = null;
  /** The periodic purge still running (a slow one is not started again on top of itself). */
  private purging: Promise<void> | null = null;

  constructor(
    private readonly store: Store,
    private readonly pool: EvaluationPool,
    private readonly now: () => number,
    private readonly options: EvaluationOptions,
    private readonly observer: EvaluationObserver = {},
    /** Called when a periodic purge fails (it is tried again at the next interval). */
    private readonly onPurgeFailure: (error: unknown) => void = () => undefined,
    /**
     * Cluster mode (issue 16): scenarios run as chunk jobs on the shared queue, on any node's
     * worker, instead of in this process's actors. Null: one process, actors (the default).
     */
    private readonly queue: Pick<ChunkQueue, 'create' | 'counts' | 'close'> | null = null,
    /** Governance contexts (issue 17): the pin of each new evaluation, the context and waivers of each chunk. */
    readonly governance: GovernanceContexts = new GovernanceContexts(store),
  ) {}

  /**
   * Whether `n` more scenario tasks of organization `org` may be submitted (the pool's capacity and
   * the organization's share of it, {@link EvaluationPool.admission}). In cluster mode the shared queue
   * takes every batch (its depth is a metric and an alert, not a refusal).
   */
  admission(org: string, n: number): PoolAdmission {
    return this.queue !== null ? 'ok' : this.pool.admission(org, n);
  }

  /** True when {@link admission} is `ok`. */
  hasCapacity(org: string, n: number): boolean {
    return this.admission(org, n) === 'ok';
  }

  /**
   * Creates a batch (written and flushed before this resolves, so an acknowledged evaluation survives
   * a crash) and starts its actor; in cluster mode, stores it with its chunk jobs in one Redis
   * transaction instead, so that when this rejects nothing was stored (issue 31, item 7). `versions` are the stored blueprint versions (stored batches);
   * `traceparent` the submitting request's trace context (EvaluationRecord `traceparent`), if any.
   */
  async submit(
    key: Pick<KeyRecord, 'org_id' | 'key_id'>,
    kind: 'stored' | 'ephemeral',
    scenarioIds: readonly string[],
    inputs: readonly ScenarioInput[],
    versions: readonly number[],
    trigger: NonNullable<EvaluationRecord['trigger']> = 'api',
    traceparent?: string,
  ): Promise<EvaluationRecord> {
    const governance = await this.governance.pin(key.org_id);
    const nowMs = this.now();
    const nowIso = new Date(nowMs).toISOString();
    const record: EvaluationRecord = {
      evaluation_id: randomUUID(),
      org_id: key.org_id,
      kind,
      status: 'pending',
      scenario_ids: scenarioIds,
      versions,
      total_scenarios: scenarioIds.length,
      completed: 0,
      scenarios: scenarioIds.map(() => null),
      error: null,
      created_at: nowIso,
      updated_at: nowIso,
      completed_at: null,
      expires_at: kind === 'ephemeral' ? nowMs + this.options.ephemeralTtlS * 1000 : null,
      key_id: key.key_id,
      governance,
      ...(trigger === 'api' ? {} : { trigger }),
      ...(traceparent === undefined ? {} : { traceparent }),
    };
    if (this.queue) {
      await this.queue.create(record, inputs); // the record and its chunk jobs, both or neither
    } else {
      await this.store.evaluations.create(record);
      this.startActor(record, inputs);
    }
    return record;
  }

  /** The evaluation as clients see it: the committed state, or undefined (unknown, or ephemeral and purged). */
  async get(evaluationId: string): Promise<EvaluationRecord | undefined> {
    const record = await this.store.evaluations.get(evaluationId);
    if (!record) return undefined;
    if (record.expires_at !== null && record.expires_at <= this.now()) return undefined;
    return record;
  }

  /**
   * Crash recovery: every evaluation left `pending`/`processing` is resumed. Stored scenarios without
   * a result are re-run from their stored blueprint version; ephemeral blueprints were never stored,
   * so those scenarios get an `error` and the batch completes. @returns the number resumed.
   */
  async recover(): Promise<number> {
    if (this.queue) return 0; // cluster mode: the queue keeps the chunks; stalled ones move to a live node
    let resumed = 0;
    for (const record of await this.store.evaluations.listOpen()) {
      const scenarios = record.scenarios.slice();
      const inputs: (ScenarioInput | null)[] = [];
      for (const [i, sid] of record.scenario_ids.entries()) {
        inputs.push(null);
        if (scenarios[i] !== null) continue; // its result and summary were committed together
        if (record.kind === 'stored') {
          const blueprint = await this.store.scenarios.blueprint(record.org_id, sid, record.versions[i] ?? 0);
          if (blueprint) inputs[i] = { scenarioId: sid, blueprint };
          else scenarios[i] = failedSummary(sid, sid, 'blueprint was deleted before evaluation');
        } else {
          scenarios[i] = failedSummary(sid, sid, 'evaluation interrupted by a server restart; resubmit the blueprint');
        }
      }
      const completed = scenarios.filter((s) => s !== null).length;
      this.startActor({ ...record, scenarios, completed }, inputs);
      resumed++;
    }
    return resumed;
  }

  /** Resolves when every running evaluation is terminal (graceful shutdown). */
  async drain(): Promise<void> {
    await Promise.all([...this.actors.values()].map((a) => a.done));
  }

  /**
   * Deletes ephemeral evaluations whose time is up (design notes: purged after 1 hour, then 404).
   * An evaluation still owned by an actor waits for
   * the next round. @returns how many were purged.
   */
  purgeExpired(nowMs: number = this.now()): Promise<number> {
    return this.store.evaluations.purgeExpired(nowMs, (id) => this.actors.has(id));
  }

  /**
   * Retention: deletes stored evaluations that became terminal more than `retentionDays` before
   * `nowMs` (a scenario's latest results stay), in rounds of RETIRE_ROUND until a round deletes
   * fewer, so each round is bounded work. Evaluations still owned by an actor wait for a later call.
   * Safe on every node of a cluster at once (each evaluation is deleted and counted once).
   * @param shouldContinue checked before each round (the periodic purge stops between rounds at shutdown).
   * @returns how many were deleted (0 when retention is off).
   */
  async purgeRetired(nowMs: number = this.now(), shouldContinue: () => boolean = () => true): Promise<number> {
    const days = this.options.retentionDays ?? 0;
    if (days <= 0) return 0;
    const busy = (id: string) => this.actors.has(id);
    let total = 0;
    let round = RETIRE_ROUND;
    while (round === RETIRE_ROUND && shouldContinue()) {
      round = await this.store.evaluations.purgeRetired(nowMs - days * DAY_MS, busy, RETIRE_ROUND);
      total += round;
      if (round > 0) this.observer.retired?.(round);
    }
    return total;
  }

  /**
   * Starts the periodic purge of expired, then retired evaluations (the timer does not keep the
   * process alive; a tick that finds the previous purge still running skips).
   */
  startPurging(): void {
    this.purgeTimer ??= setInterval(() => {
      this.purging ??= this.purgeExpired()
        .then(() => this.purgeRetired(this.now(), () => this.purgeTimer !== null))
        .then(
          () => undefined,
          (error: unknown) => this.onPurgeFailure(error),
        )
        .finally(() => {
          this.purging = null;
        });
    }, PURGE_INTERVAL_MS);
    this.purgeTimer.unref();
  }

  /** Stops the periodic purge (shutdown). */
  stopPurging(): void {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    this.purgeTimer = null;
  }

  /** Halts every actor (shutdown after the deadline): their unfinished evaluations stay open in LMDB. */
  halt(): void {
    this.stopPurging();
    for (const a of this.actors.values()) a.halt();
  }

  /** Job counts of the shared chunk queue (cluster mode), or null without one. */
  async queueCounts(): Promise<ChunkQueueCounts | null> {
    return this.queue ? this.queue.counts() : null;
  }

  /** Closes the connection of the chunk queue, if any (shutdown, after the last submission). */
  async closeQueue(): Promise<void> {
    await this.queue?.close();
  }

  /** Evaluations currently owned by an actor. */
  get running(): number {
    return this.actors.size;
  }

  private startActor(record: EvaluationRecord, inputs: readonly (ScenarioInput | null)[]): void {
    const actor = new EvaluationActor(
      this.store,
      this.pool,
      record,
      inputs,
      this.now,
      this.options.evaluationTimeoutMs,
      this.governance,
      this.observer,
    );
    this.actors.set(record.evaluation_id, actor);
    void actor.done.then(() => this.actors.delete(record.evaluation_id));
    actor.start();
    if (record.completed === record.total_scenarios) actor.send({ type: 'timed-out' }); // nothing left to run (recovery)
  }
}
