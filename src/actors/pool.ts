/** @module actors/pool: the piscina worker pool, bounded, with per-task time budgets (PITFALLS 12-16). */
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { INTERACTIVE_RESERVE_MS, type Lane } from './lanes.js';
import { FairQueue } from './fair-queue.js';
import { MAX_BATCH } from '../api/requests.js';
import { classifyTaskError, TaskBudget, type TaskFailure } from './task-failure.js';
import type {
  ChunkProgress,
  ChunkScenario,
  ChunkTask,
  GovernanceTaskContext,
  InlineTask,
  InlineTaskResult,
  RenderTask,
  RenderTaskResult,
  ScenarioTask,
  ScenarioTaskResult,
} from './worker-protocol.js';

/** Pool options. */
export interface PoolOptions {
  /** Worker threads (min = max, so threads are not torn down between bursts). */
  readonly threads: number;
  /** Tasks allowed to wait for a worker; beyond it `hasCapacity` is false (→ 503 with Retry-After). */
  readonly maxQueue: number;
  /** Time budget of one task in ms; on expiry the task's worker is terminated and replaced. */
  readonly taskTimeoutMs: number;
  /** V8 old-generation cap per worker in MiB (an OOM rejects the task, not the process). */
  readonly maxOldGenerationMb: number;
  /** V8 young-generation cap per worker in MiB (two semi-spaces and young large objects; V8's default is 48). */
  readonly maxYoungGenerationMb: number;
  /**
   * How long after an interactive task the last free worker stays kept for interactive tasks, in ms
   * (default INTERACTIVE_RESERVE_MS, 0: off; see there for when it helps).
   */
  readonly interactiveReserveMs?: number;
  /**
   * Most of the pool's capacity (`maxQueue + threads` tasks in flight) one organization may hold, in
   * per cent (default {@link DEFAULT_ORG_SHARE_PERCENT}); beyond it `admission` answers `share_full`
   * (→ 503 with Retry-After) while the other organizations are still admitted (issue 31).
   */
  readonly orgSharePercent?: number;
}

/** Default of `PoolOptions.orgSharePercent`: one organization may fill half of the pool's capacity. */
export const DEFAULT_ORG_SHARE_PERCENT = 50;

/** Whether `n` more tasks of an organization may enter the pool: yes, the pool is full, or that organization's share is. */
export type PoolAdmission = 'ok' | 'pool_full' | 'share_full';

export type { TaskFailure } from './task-failure.js';

/** How a chunk ended: the scenarios it did not report and, when the task failed, why. */
export interface ChunkOutcome {
  readonly unreported: readonly number[];
  readonly failure: TaskFailure | null;
}

/** A task waiting in a lane: `start` hands it to piscina, `cancel` fails it without a worker. */
interface Waiting {
  readonly start: () => void;
  readonly cancel: (reason: Error) => void;
}

/** Why a task failed without running: the pool was closed (forced shutdown). */
const POOL_CLOSED = new Error('the evaluation pool is closed');

/**
 * The evaluation pool. The HTTP thread never runs policies: every evaluation goes through here.
 *
 * Tasks wait in our own queues and go to piscina only when a worker is free: per organization, two
 * FIFO lanes ({@link FairQueue}); a free worker goes to the organization running the fewest tasks, so
 * one organization's flood delays another's task by at most the first worker to come free, and one
 * organization may hold at most `orgSharePercent` of the capacity. piscina's
 * queue reorders tasks that carry an abort signal (all of ours: the time budget): a task that finds
 * every worker busy goes to its skip queue, at the tail by default (the head is shifted off and
 * pushed back behind the others on each completion) or at the head with `stricterFIFO` (LIFO).
 * Either way a task could wait seconds behind later ones: with one worker, p50 3.6 ms and max 4 s
 * for 16 concurrent inline calls (a closed loop straight into the pool); with this queue, p50
 * 4.8 ms and max 24 ms, the queue's depth times the service time. Optionally, while inline requests
 * arrive, chunks leave the last free worker to them (`PoolOptions.interactiveReserveMs`): a running
 * chunk cannot be preempted.
 *
 * Idle workers wait for tasks with `Atomics.waitAsync` (piscina's `atomics: 'async'`), not piscina's
 * default blocking `Atomics.wait`: a worker blocked there runs nothing between tasks (its event-loop
 * utilisation reads 1.0 while idle), so V8's memory reducer, which shrinks an idle heap, never ran and
 * every worker kept the heap of its busiest moment. After three rounds of 1,000 fuzz bodies and a
 * minute of quiet, the service's RSS was 147-220 MB with blocking waits and 121-127 MB with these
 * (each worker's heap 17-26 → 8-9 MiB); inline throughput and CPU per request did not change.
 */
export class EvaluationPool {
  private readonly piscina: Piscina;
  private inFlight = 0;
  /** Tasks handed to piscina and not yet settled (at most `threads`). */
  private running = 0;
  /** Of `running`, the bulk tasks (chunks). */
  private runningBulk = 0;
  /** When the last interactive task was submitted (performance.now() ms). */
  private lastInteractiveMs = Number.NEGATIVE_INFINITY;
  /** Dispatches the bulk lane once the interactive reservation lapses (armed only while it holds a chunk back). */
  private reserveTimer: NodeJS.Timeout | null = null;
  private readonly waiting = new FairQueue<Waiting>();
  /** Tasks (scenarios, for chunks) in flight per organization; absent at zero. */
  private readonly inFlightBy = new Map<string, number>();
  /** Tasks handed to piscina and not yet settled, per organization; absent at zero. */
  private readonly runningBy = new Map<string, number>();
  private readonly runningOf = (org: string): number => this.runningBy.get(org) ?? 0;
  /** Set by a forced close: queued and new tasks fail without reaching piscina. */
  private closed = false;
  private drained: (() => void) | null = null;
  private nextChunkId = 1;
  /** Progress handlers of running chunks, by chunk id. */
  private readonly chunks = new Map<number, (progress: ChunkProgress) => void>();
  /** Called with the queue wait (s) of each task a worker started, and with each worker-ending failure. */
  onWait: (seconds: number) => void = () => undefined;
  onWorkerFailure: (reason: TaskFailure['code']) => void = () => undefined;

  constructor(readonly options: PoolOptions) {
    this.piscina = new Piscina({
      filename: fileURLToPath(new URL('./evaluation-worker.js', import.meta.url)),
      minThreads: options.threads,
      maxThreads: options.threads,
      maxQueue: options.maxQueue,
      idleTimeout: 60_000,
      atomics: 'async',
      resourceLimits: {
        maxOldGenerationSizeMb: options.maxOldGenerationMb,
        maxYoungGenerationSizeMb: options.maxYoungGenerationMb,
      },
    });
    this.piscina.on('error', () => this.onWorkerFailure('worker_crashed')); // an idle worker's error must not end the process (PITFALLS 12)
    this.piscina.on('message', (message: ChunkProgress) => this.chunks.get(message?.chunkId)?.(message));
  }

  /** True when `n` more tasks of organization `org` may enter the pool (see {@link admission}). */
  hasCapacity(org: string, n: number): boolean {
    return this.admission(org, n) === 'ok';
  }

  /** Whether `n` more tasks of `org` may enter: the pool's capacity, then the organization's share of it. */
  admission(org: string, n: number): PoolAdmission {
    if (this.inFlight + n > this.capacity) return 'pool_full';
    return (this.inFlightBy.get(org) ?? 0) + n > this.orgCapacity ? 'share_full' : 'ok';
  }

  /** Most tasks accepted in flight. */
  get capacity(): number {
    return this.options.maxQueue + this.options.threads;
  }

  /**
   * Most tasks one organization may have in flight: its share of the capacity, but never less than one
   * task per worker nor than one batch of the largest size (spec §8: `MAX_BATCH` scenarios), so that
   * every batch the API accepts fits a pool that could hold it; never more than the capacity.
   */
  get orgCapacity(): number {
    const percent = this.options.orgSharePercent ?? DEFAULT_ORG_SHARE_PERCENT;
    const share = Math.floor((this.capacity * percent) / 100);
    return Math.min(this.capacity, Math.max(this.options.threads, MAX_BATCH, share));
  }

  /** Tasks queued or running. */
  get pending(): number {
    return this.inFlight;
  }

  /** Tasks waiting for a worker (both lanes). */
  get queueSize(): number {
    return this.waiting.size + this.piscina.queueSize;
  }

  /** Pool utilisation 0..1 (piscina's running estimate). */
  get utilization(): number {
    return this.piscina.utilization;
  }

  /** Worker threads alive. */
  get threadCount(): number {
    return this.piscina.threads.length;
  }

  /** The worker threads, for tests and diagnostics (their applied `resourceLimits`, their event-loop utilisation). */
  get workers(): readonly Worker[] {
    return this.piscina.threads;
  }

  /** Evaluates one scenario of organization `org`; failures (throw, exit, OOM, time-out) come back as data. */
  runScenario(org: string, task: ScenarioTask): Promise<ScenarioTaskResult | TaskFailure> {
    return this.run<ScenarioTaskResult>(org, task);
  }

  /**
   * Evaluates several scenarios of one evaluation of organization `org` in one task (one dispatch
   * instead of one per scenario). `onResult` is called once per scenario as its outcome arrives. The time budget is
   * per scenario: it starts when a worker picks the chunk up and restarts with every outcome. When
   * the task fails (time-out, crash, out of memory) it returns the failure and the scenarios not yet
   * reported, for the caller to re-run one per chunk, so the faulty one fails alone.
   */
  async runChunk(
    org: string,
    evaluationId: string,
    evaluatedAt: string,
    governance: GovernanceTaskContext,
    scenarios: readonly ChunkScenario[],
    onResult: (index: number, result: ScenarioTaskResult) => void,
  ): Promise<ChunkOutcome> {
    const chunkId = this.nextChunkId++;
    const waiting = new Set(scenarios.map((s) => s.index));
    const submittedAtMs = performance.timeOrigin + performance.now();
    const budget = new TaskBudget(this.options.taskTimeoutMs);
    let allDelivered = (): void => undefined;
    const delivered = new Promise<void>((resolve) => {
      allDelivered = resolve;
    });
    this.chunks.set(chunkId, (progress) => {
      if (progress.started) {
        this.onWait(Math.max(0, progress.startedAtMs - submittedAtMs) / 1000);
        budget.start();
        return;
      }
      if (!waiting.delete(progress.index)) return;
      budget.refresh();
      onResult(progress.index, progress.result);
      if (waiting.size === 0) allDelivered();
    });
    this.enter(org, scenarios.length);
    try {
      const task: ChunkTask = { kind: 'chunk', chunkId, evaluationId, evaluatedAt, governance, scenarios };
      await this.schedule('bulk', org, () => this.piscina.run(task, { signal: budget.signal }));
      // Outcomes travel on the worker's parentPort, the task's answer on its task port: wait for both.
      if (waiting.size > 0) await delivered;
      return { unreported: [], failure: null };
    } catch (err) {
      const failure = classifyTaskError(err, { closed: this.closed, expired: budget.expired });
      if (failure.code !== 'worker_error' && failure.code !== 'pool_closed') this.onWorkerFailure(failure.code);
      return { unreported: [...waiting], failure };
    } finally {
      budget.clear();
      this.chunks.delete(chunkId);
      this.leave(org, scenarios.length);
    }
  }

  /** Evaluates an inline request body of organization `org`. */
  runInline(org: string, task: InlineTask): Promise<InlineTaskResult | TaskFailure> {
    return this.run<InlineTaskResult>(org, task, [task.body.buffer as ArrayBuffer]);
  }

  /** Draws a stored scenario of organization `org` (the console's scenario page) in a worker. */
  runRender(org: string, task: RenderTask): Promise<RenderTaskResult | TaskFailure> {
    return this.run<RenderTaskResult>(org, task);
  }

  private async run<T>(
    org: string,
    task: ScenarioTask | InlineTask | RenderTask,
    transfer?: ArrayBuffer[],
  ): Promise<T | TaskFailure> {
    this.enter(org, 1);
    const submittedAtMs = performance.timeOrigin + performance.now();
    const budget = new TaskBudget(this.options.taskTimeoutMs);
    try {
      // The time budget starts when a worker is free, not while the task waits in our queue.
      const result = (await this.schedule('interactive', org, () => {
        budget.start();
        return this.piscina.run(task, { signal: budget.signal, ...(transfer ? { transferList: transfer } : {}) });
      })) as T;
      const started = (result as { stats?: { startedAtMs?: number } }).stats?.startedAtMs;
      if (started) this.onWait(Math.max(0, started - submittedAtMs) / 1000);
      return result;
    } catch (err) {
      const failure = classifyTaskError(err, { closed: this.closed, expired: budget.expired });
      if (failure.code !== 'worker_error' && failure.code !== 'pool_closed') this.onWorkerFailure(failure.code);
      return failure;
    } finally {
      budget.clear();
      this.leave(org, 1);
    }
  }

  /** Counts `n` tasks of `org` in flight. */
  private enter(org: string, n: number): void {
    this.inFlight += n;
    this.inFlightBy.set(org, (this.inFlightBy.get(org) ?? 0) + n);
  }

  /** Counts `n` tasks of `org` out of flight. */
  private leave(org: string, n: number): void {
    this.inFlight -= n;
    adjust(this.inFlightBy, org, -n);
  }

  /**
   * Runs `start` (which hands one task to piscina) once fewer than `threads` tasks run, in the
   * order of `FairQueue` (the organization running the fewest tasks first; per organization FIFO per
   * lane, interactive first, bulk after a streak), and a bulk task only when `bulkMayStart` (the last
   * free worker is kept for interactive tasks while they arrive).
   */
  private schedule<T>(lane: Lane, org: string, start: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.closed) {
        reject(POOL_CLOSED);
        return;
      }
      if (lane === 'interactive') this.lastInteractiveMs = performance.now();
      const waiting: Waiting = {
        start: () => {
          this.running++;
          this.runningBy.set(org, this.runningOf(org) + 1);
          if (lane === 'bulk') this.runningBulk++;
          start()
            .then(resolve, reject)
            .finally(() => {
              this.running--;
              adjust(this.runningBy, org, -1);
              if (lane === 'bulk') this.runningBulk--;
              this.dispatchWaiting();
            });
        },
        cancel: reject,
      };
      this.waiting.push(org, lane, waiting);
      this.dispatchWaiting();
    });
  }

  /** True when a chunk may take a free worker now: it would not take the last one, or no interactive task came within the reservation. */
  private bulkMayStart(nowMs: number): boolean {
    const reserveMs = this.options.interactiveReserveMs ?? INTERACTIVE_RESERVE_MS;
    return (
      this.options.threads < 2 ||
      this.runningBulk < this.options.threads - 1 ||
      nowMs - this.lastInteractiveMs >= reserveMs
    );
  }

  private dispatchWaiting(): void {
    const now = performance.now();
    while (this.running < this.options.threads) {
      const next = this.waiting.shift(this.runningOf, this.bulkMayStart(now));
      if (!next) break;
      next.item.start();
    }
    if (this.running < this.options.threads && this.waiting.bulkSize > 0) this.armReserveTimer(now);
    else this.clearReserveTimer();
    if (this.running === 0 && this.waiting.size === 0) this.drained?.();
  }

  private clearReserveTimer(): void {
    if (this.reserveTimer !== null) clearTimeout(this.reserveTimer);
    this.reserveTimer = null;
  }

  /** A chunk waits while a worker is free (kept for interactive tasks): dispatch again when the reservation lapses. */
  private armReserveTimer(nowMs: number): void {
    if (this.reserveTimer !== null) return;
    const reserveMs = this.options.interactiveReserveMs ?? INTERACTIVE_RESERVE_MS;
    const delay = Math.max(1, Math.ceil(this.lastInteractiveMs + reserveMs - nowMs));
    this.reserveTimer = setTimeout(() => {
      this.reserveTimer = null;
      this.dispatchWaiting();
    }, delay);
  }

  /**
   * Stops the workers. With `force`, running tasks are aborted (their evaluations stay open in LMDB
   * and are resumed by the next start); without it, running tasks finish first.
   */
  async close(force = false): Promise<void> {
    if (force) {
      // Queued tasks fail here: once destroy() has finished, piscina accepts tasks again and would
      // start a new worker for them. piscina's close({ force: true }) waits forever on a worker
      // stuck in a busy loop; destroy() terminates it.
      this.closed = true;
      this.clearReserveTimer();
      for (const waiting of this.waiting.clear()) waiting.cancel(POOL_CLOSED);
      await this.piscina.destroy();
      return;
    }
    if (this.running > 0 || this.queueSize > 0)
      await new Promise<void>((resolve) => {
        this.drained = resolve;
      });
    await this.piscina.close();
  }
}

/** Adds `delta` to a count kept per organization, removing it at zero (the map holds only active organizations). */
function adjust(counts: Map<string, number>, org: string, delta: number): void {
  const n = (counts.get(org) ?? 0) + delta;
  if (n > 0) counts.set(org, n);
  else counts.delete(org);
}
