/**
 * @module actors/cluster/chunk-worker: the consumer side of cluster mode (issue 16). Every node with
 * `ROLE=all|worker` runs one: it takes chunk jobs from the shared queue, evaluates them on its own
 * piscina pool, and merges the outcomes into the stored evaluation with one atomic read-modify-write
 * (`EvaluationsRepository.update`), so chunks of one evaluation may finish on several nodes at once.
 *
 * A node that dies mid-chunk loses nothing: its job's lock expires and BullMQ's stalled-job check
 * hands the job to another node, which runs the scenarios that have no outcome yet; outcomes merge
 * idempotently (a scenario keeps its first outcome; results and rollup contributions are keyed by
 * evaluation and scenario), so a re-run never counts a scenario twice. Evaluations that outlive
 * their time budget (a job that failed every attempt, or an evaluation that a release before
 * issue 31 stored without its jobs: now both are one transaction, chunk-queue `create`) are closed
 * by a sweep of the open index that every worker runs.
 */
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { EvaluationRecord, WebhookRecord } from '../../model/records.js';
import type { EvaluationCommit } from '../../store/evaluations/repository.js';
import type { Store } from '../../store/store.js';
import type { EvaluationObserver } from '../evaluation-actor.js';
import type { EvaluationPool } from '../pool.js';
import type { ChunkScenario } from '../worker-protocol.js';
import type { ChunkJobData } from './chunk-jobs.js';
import { runChunk } from '../run-chunk.js';
import type { GovernanceContexts } from '../governance.js';
import { isTerminal, recordOnly, started, timedOut, withOutcomes, type ScenarioOutcome } from '../transitions.js';
import { bullPrefix, CHUNK_QUEUE } from './chunk-queue.js';

/** Options of a node's chunk worker. */
export interface ChunkWorkerOptions {
  readonly redisUrl: string;
  readonly redisPrefix: string;
  /** Chunk jobs this node runs at once (each is up to CHUNK_SIZE scenarios on the pool). */
  readonly concurrency: number;
  /**
   * How long a job's lock lasts without renewal, in ms (BullMQ `lockDuration`; renewed every half
   * of it while the node lives): after a node dies, its chunks move to other nodes within about
   * twice this. `CHUNK_LOCK_MS`, default 30000 (BullMQ's default).
   */
  readonly lockMs: number;
  /** A batch not terminal this long after its creation is closed (`EVALUATION_TIMEOUT_MS`). */
  readonly evaluationTimeoutMs: number;
  /** Interval of the sweep of open evaluations past their budget, in ms. */
  readonly sweepIntervalMs: number;
  /**
   * Told when this node starts a chunk job (its organization's id and the job's id), which takes the
   * job out of that organization's backlog (chunk-queue `chunkPriority`); its failure is ignored
   * (the entry ages out with the evaluation budget).
   */
  readonly jobStarted?: (orgId: string, jobId: string) => Promise<void>;
}

/** Consumes chunk jobs on this node's pool. */
export class ChunkWorker {
  private readonly worker: Worker<ChunkJobData>;
  private readonly connection: Redis;
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: Store,
    private readonly pool: EvaluationPool,
    private readonly now: () => number,
    private readonly options: ChunkWorkerOptions,
    /** The governance context and waivers of each chunk (issue 17). */
    private readonly governance: GovernanceContexts,
    private readonly observer: EvaluationObserver = {},
    /** Called when a job attempt or a sweep fails (the job is retried; the sweep runs again). */
    private readonly onFailure: (error: unknown) => void = () => undefined,
    /** Called when this node finds a stalled job (its node died or hung) and hands it on. */
    onStalled: () => void = () => undefined,
  ) {
    // BullMQ's workers block on Redis and must wait for it while it is down (maxRetriesPerRequest null).
    this.connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    this.connection.on('error', () => undefined); // reported through the worker's 'error' event
    this.worker = new Worker<ChunkJobData>(CHUNK_QUEUE, (job) => this.process(job), {
      connection: this.connection,
      prefix: bullPrefix(options.redisPrefix),
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: Math.max(500, Math.floor(options.lockMs / 2)),
      // A chunk whose node died is handed on, however often that happens; a poison chunk cannot stall
      // a node (failures are outcomes), so the bound is only against a loop of crashing nodes.
      maxStalledCount: 10,
      autorun: false,
    });
    this.worker.on('error', (error) => this.onFailure(error));
    this.worker.on('failed', (_job, error) => this.onFailure(error));
    this.worker.on('stalled', () => onStalled());
  }

  /** Starts consuming and sweeping. */
  start(): void {
    void this.worker.run().catch(this.onFailure);
    this.sweepTimer = setInterval(() => {
      this.sweep().catch(this.onFailure);
    }, this.options.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  /** Stops taking jobs and waits for the active ones to finish (graceful shutdown), then disconnects. */
  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.worker.close();
    this.connection.disconnect();
  }

  /** Stops at once: active jobs are abandoned and move to another node once their locks expire (shutdown after the deadline). */
  async halt(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.worker.close(true);
    this.connection.disconnect();
  }

  /**
   * Runs one chunk job: the scenarios without an outcome yet, then one atomic merge of their
   * outcomes. Throws (the job is retried) when the store cannot be read or written.
   */
  async process(job: Job<ChunkJobData>): Promise<void> {
    const { evaluationId, orgId } = job.data;
    if (job.id !== undefined && this.options.jobStarted) this.options.jobStarted(orgId, job.id).catch(() => undefined); // best effort: the entry ages out
    const record = await this.store.evaluations.get(evaluationId);
    if (!record || isTerminal(record)) return; // deleted by an operator, or closed (time-out)
    // `pending → processing` (spec §2) is written while the chunk's blueprints are read and run,
    // not before: it holds nothing up (a merge first would make it a no-op; it is awaited before the merge).
    const nowIso0 = this.iso();
    const starting =
      record.status === 'pending'
        ? this.store.evaluations
            .update(evaluationId, (r) => {
              const next = started(r, nowIso0);
              return next && recordOnly(next);
            })
            // Held as a value until awaited below (a rejection left pending meanwhile would be unhandled).
            .then(
              () => null,
              (error: unknown) => ({ error }),
            )
        : null;
    const outcomes: ScenarioOutcome[] = [];
    const chunk: ChunkScenario[] = [];
    const todo = job.data.scenarios.filter((s) => record.scenarios[s.index] === null); // others: an earlier run of this job merged them
    // Read together: one pipelined round trip for the chunk, not one per scenario.
    const blueprints = await Promise.all(
      todo.map(async (s) =>
        s.blueprint !== undefined
          ? Buffer.from(s.blueprint, 'base64')
          : this.store.scenarios.blueprint(orgId, s.scenarioId, s.version ?? 0),
      ),
    );
    for (const [i, s] of todo.entries()) {
      const blueprint = blueprints[i];
      if (!blueprint) {
        outcomes.push({
          index: s.index,
          result: {
            ok: false,
            code: 'blueprint_invalid',
            name: s.scenarioId,
            message: 'blueprint was deleted before evaluation',
          },
        });
        continue;
      }
      chunk.push({ index: s.index, scenarioId: s.scenarioId, blueprint, ...(s.fault ? { fault: s.fault } : {}) });
    }
    const evaluatedAt = this.iso();
    const prepared = await this.governance.forChunk(record, chunk, evaluatedAt);
    await runChunk(this.pool, orgId, evaluationId, evaluatedAt, prepared.governance, prepared.chunk, (index, result) =>
      outcomes.push({ index, result }),
    );
    const failedStart = await starting;
    if (failedStart) throw failedStart.error; // the job is retried
    const nowIso = this.iso();
    await this.merge(
      evaluationId,
      (r) => withOutcomes(r, outcomes, nowIso),
      (final) => {
        for (const { index, result } of outcomes) this.observer.scenarioFinished?.(final, index, result);
      },
    );
  }

  /**
   * Closes the open evaluations whose time budget ran out (spec §3: a batch always ends). Reads the
   * open index only (never the fleet); safe on every node at once, as each close is a conditional
   * update. @returns how many this call closed.
   */
  async sweep(): Promise<number> {
    const nowMs = this.now();
    let closed = 0;
    for (const record of await this.store.evaluations.listOpen()) {
      if (Date.parse(record.created_at) + this.options.evaluationTimeoutMs > nowMs) continue;
      const nowIso = new Date(nowMs).toISOString();
      const done = await this.merge(record.evaluation_id, (r) => {
        const next = timedOut(r, nowIso, this.options.evaluationTimeoutMs);
        return next && recordOnly(next);
      });
      if (done) closed++;
    }
    return closed;
  }

  /**
   * Stores the change `decide` makes to the current record, with the events of a terminal record in
   * the outbox of the same write; once it is durable, tells the observer. @returns true when written.
   */
  private async merge(
    evaluationId: string,
    decide: (current: EvaluationRecord) => EvaluationCommit | undefined,
    afterWrite: (record: EvaluationRecord) => void = () => undefined,
  ): Promise<boolean> {
    const t0 = performance.now();
    const observer = this.observer;
    const receipt = await this.store.evaluations.update(evaluationId, (current) => {
      const change = decide(current);
      if (!change || !isTerminal(change.record) || !observer.deliveries) return change;
      const final = change.record;
      return { ...change, deliveries: (endpoints: readonly WebhookRecord[]) => observer.deliveries!(final, endpoints) };
    });
    if (!receipt) return false;
    this.observer.committed?.((performance.now() - t0) / 1000);
    afterWrite(receipt.record);
    if (isTerminal(receipt.record)) {
      await this.store.flushed();
      this.observer.terminal?.(receipt.record, receipt.webhookIds);
    }
    return true;
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }
}
