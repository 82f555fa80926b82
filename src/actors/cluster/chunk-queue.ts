/**
 * @module actors/cluster/chunk-queue: the producer side of cluster mode's work distribution (issue
 * 16): an evaluation's chunks become BullMQ jobs on one queue that the worker of every node with
 * `ROLE=all|worker` consumes. Adding is idempotent (job ids are `<evaluation>-<chunk>`).
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { EvaluationRecord } from '../../model/records.js';
import type { ScenarioInput } from '../evaluation-actor.js';
import { chunkJobs, type ChunkJobData } from './chunk-jobs.js';

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

/** Adds chunk jobs. One per node; its connection fails fast while Redis is down (the request gets 503). */
export class ChunkQueue {
  private readonly queue: Queue<ChunkJobData>;
  private readonly connection: Redis;

  constructor(redisUrl: string, redisPrefix: string) {
    this.connection = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    // Without a listener an unreachable Redis is reported by ioredis as an unhandled 'error' event.
    this.connection.on('error', () => undefined);
    this.queue = new Queue<ChunkJobData>(CHUNK_QUEUE, {
      connection: this.connection,
      prefix: bullPrefix(redisPrefix),
      defaultJobOptions: CHUNK_JOB_OPTIONS,
    });
    this.queue.on('error', () => undefined); // the same connection errors; callers see failed adds
  }

  /** Adds the chunks of `record` (one atomic MULTI: all or none). Resolves once Redis acknowledged them. */
  async enqueue(record: EvaluationRecord, inputs: readonly ScenarioInput[]): Promise<void> {
    await this.queue.addBulk(
      chunkJobs(record, inputs).map((j) => ({ name: 'chunk', data: j.data, opts: { jobId: j.jobId } })),
    );
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
