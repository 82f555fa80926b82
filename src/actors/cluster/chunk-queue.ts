/**
 * @module actors/cluster/chunk-queue: the producer side of cluster mode's work distribution (issue
 * 16): an evaluation's chunks become BullMQ jobs on one queue that the worker of every node with
 * `ROLE=all|worker` consumes. The evaluation record and its chunk jobs are written in one Redis
 * transaction (issue 31, item 7): a submission that fails leaves neither behind. Jobs are ordered
 * fairly between organizations (issue 31, item 1): a job's BullMQ priority is its place in its own
 * organization's backlog, so the queue serves the organizations with waiting jobs in turn.
 */
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { EvaluationRecord } from '../../model/records.js';
import type { ScenarioInput } from '../evaluation-actor.js';
import { chunkJobs, type ChunkJobData } from './chunk-jobs.js';
import { defineScriptCommand, scriptCallArgs, type ScriptCall } from '../../store/redis/script.js';
import { COMMAND_TIMEOUT_MS } from '../../store/redis/store.js';

/** Name of the chunk queue (its keys are `<REDIS_PREFIX>bull:<name>:*`, BullMQ's layout). */
export const CHUNK_QUEUE = 'chunks';

/**
 * What every chunk job is added with. `attempts`: a processor that fails (Redis unreachable while it
 * commits) is retried with exponential backoff, 1 s, 2 s, 4 s, …; a node that dies mid-chunk is
 * not a failure but a stall, which BullMQ hands to another node (worker `maxStalledCount`).
 * Completed jobs are removed (the evaluation record is the result), failed ones kept a day.
 */
export const CHUNK_JOB_OPTIONS = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: { age: 86_400 },
} as const;

/** The BullMQ prefix under the service's Redis prefix, so a deployment's queues sit beside its keys. */
export function bullPrefix(redisPrefix: string): string {
  return `${redisPrefix}bull`;
}

/** Job counts of the chunk queue (metrics: queue depth, active, delayed and failed jobs). */
export interface ChunkQueueCounts {
  readonly waiting: number;
  readonly active: number;
  readonly delayed: number;
  readonly failed: number;
}

/**
 * How the Redis store creates an evaluation (store/evaluations/redis `RedisEvaluations`): the create
 * script's call for a record, and what to do once it ran.
 */
export interface EvaluationCreator {
  creation(record: EvaluationRecord): ScriptCall;
  created(record: EvaluationRecord): void;
  /** The organization's chunk jobs not yet started, dropping those queued before `oldestMs`. */
  chunkBacklog(orgId: string, oldestMs: number): Promise<number>;
  /** The script call that counts `jobIds` into the organization's backlog, run in the creating transaction. */
  chunksQueued(orgId: string, jobIds: readonly string[], atMs: number): ScriptCall;
}

/** BullMQ's lowest priority (its largest number, `2 ** 21`); 1 is the highest. */
const LOWEST_PRIORITY = 2 ** 21;

/**
 * The BullMQ priority of the `n`-th (from 0) new job of an organization that has `backlog` jobs
 * waiting: its place in that organization's queue, `backlog + n + 1`. BullMQ takes the lowest number
 * first and, among equal numbers, the oldest job: so the next job of every organization with waiting
 * jobs comes before the second of any, whatever their backlogs (start-time fair queuing with one unit
 * per chunk, as the pool does on each node: actors/fair-queue). A newcomer's first job waits behind at
 * most one job per other organization already waiting.
 */
export function chunkPriority(backlog: number, n: number): number {
  return Math.min(LOWEST_PRIORITY, backlog + n + 1);
}

/**
 * Creates evaluations with their chunk jobs. One per node, on a connection of its own that fails
 * fast while Redis is down (no offline queue, one retry, the store's 2 s command time-out): the
 * request gets 503.
 */
export class ChunkQueue {
  private readonly queue: Queue<ChunkJobData>;
  private readonly connection: Redis;

  /**
   * @param backlogWindowMs how long a queued job counts in its organization's backlog at most, in ms
   *   (`EVALUATION_TIMEOUT_MS`: a job still waiting then belongs to an evaluation its budget closed)
   */
  constructor(
    redisUrl: string,
    redisPrefix: string,
    private readonly evaluations: EvaluationCreator,
    private readonly backlogWindowMs: number,
  ) {
    this.connection = new Redis(redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: false,
      commandTimeout: COMMAND_TIMEOUT_MS,
      // A transaction in flight when the connection drops fails (503) instead of being sent again
      // after the reconnect, when its request may already have been answered.
      autoResendUnfulfilledCommands: false,
    });
    // Without a listener an unreachable Redis is reported by ioredis as an unhandled 'error' event.
    this.connection.on('error', () => undefined);
    this.queue = new Queue<ChunkJobData>(CHUNK_QUEUE, {
      connection: this.connection,
      prefix: bullPrefix(redisPrefix),
      defaultJobOptions: CHUNK_JOB_OPTIONS,
    });
    this.queue.on('error', () => undefined); // the same connection errors; callers see failed creations
  }

  /**
   * Stores `record` (the store's create script) and adds its chunk jobs in one `MULTI`/`EXEC`, as
   * BullMQ's FlowProducer adds a flow's jobs: Redis runs all of it or none of it, so when this
   * rejects, neither the evaluation nor a job exists (the request's 503 changed nothing), except
   * when the connection broke after Redis received the `EXEC`: then both exist and the evaluation
   * completes (docs/architecture.md, "Cluster mode"). Resolves once Redis acknowledged the transaction.
   * @throws the connection's errors (Redis unreachable: store/redis/unavailable), or Redis's error
   *   for a refused command (an `OOM` refusal aborts the whole transaction and is thrown as such).
   */
  async create(record: EvaluationRecord, inputs: readonly ScenarioInput[]): Promise<void> {
    const jobs = chunkJobs(record, inputs);
    const atMs = Date.parse(record.created_at);
    // Read before the transaction (a concurrent submission of the same organization may read the same
    // count: its jobs then share places, which only reorders that organization's own jobs).
    const backlog = await this.evaluations.chunkBacklog(record.org_id, atMs - this.backlogWindowMs);
    const call = this.evaluations.creation(record);
    const queued = this.evaluations.chunksQueued(
      record.org_id,
      jobs.map((j) => j.jobId),
      atMs,
    );
    // Defined before multi(): the transaction copies the connection's commands.
    const command = defineScriptCommand(this.connection, call.script);
    const queuedCommand = defineScriptCommand(this.connection, queued.script);
    const tx = (await this.queue.client).multi();
    tx.runCommand(command, scriptCallArgs(call));
    for (const [n, j] of jobs.entries()) {
      const opts = { ...CHUNK_JOB_OPTIONS, jobId: j.jobId, priority: chunkPriority(backlog, n) };
      await new Job<ChunkJobData>(this.queue, 'chunk', j.data, opts, j.jobId).addJob(tx);
    }
    tx.runCommand(queuedCommand, scriptCallArgs(queued));
    let replies: [Error | null, unknown][] | null;
    try {
      replies = await tx.exec();
    } catch (error) {
      throw refusal(error);
    }
    if (replies === null) throw new Error('the evaluation transaction was discarded'); // only after a WATCH, which it has not
    // A command that failed while the others ran: a script's error (a bug; the evaluation's time
    // budget closes what was written), never an outage, which fails the whole transaction.
    const failed = replies.find(([error]) => error !== null);
    if (failed) throw failed[0]!;
    this.evaluations.created(record);
  }

  /** Job counts (one round trip). */
  async counts(): Promise<ChunkQueueCounts> {
    const c = await this.queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'prioritized');
    return {
      waiting: (c['waiting'] ?? 0) + (c['prioritized'] ?? 0),
      active: c['active'] ?? 0,
      delayed: c['delayed'] ?? 0,
      failed: c['failed'] ?? 0,
    };
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.connection.disconnect();
  }
}

/**
 * The error of an aborted transaction (`EXECABORT`, which ioredis gives the errors of the refused
 * commands as `previousErrors`): the first refusal, so that an `OOM` refusal is seen as such (503).
 */
function refusal(error: unknown): unknown {
  const previous = (error as { previousErrors?: unknown[] } | null)?.previousErrors;
  return previous && previous.length > 0 ? previous[0] : error;
}
