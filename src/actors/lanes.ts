/** @module actors/lanes: the pool's two waiting queues and the order it takes tasks from them. */

/** Which queue a task waits in: inline requests (a client waits on the connection) or batch chunks. */
export type Lane = 'interactive' | 'bulk';

/**
 * Interactive tasks taken in a row while a bulk task waits; then the oldest bulk task goes next, so
 * batches keep moving (1 in 5 dispatches) under a flood of inline requests.
 */
export const INTERACTIVE_STREAK = 4;

/**
 * Default of `PoolOptions.interactiveReserveMs`, in ms: 0, off. When set, for that long after an
 * inline request batch chunks run on at most `threads − 1` workers, so an inline request finds a
 * free worker instead of waiting behind a chunk (a running task cannot be preempted); with one
 * thread nothing is kept. Off by default because it helps only while inline traffic fits in the kept
 * worker: beside two closed-loop batch clients at 100 inline req/s an inline request's wait for a
 * worker went from p50 8.5 / p99 211 ms to 0.86 / 47 ms, but beside a batch every 250 ms at 500
 * inline req/s (more than one worker's worth) from p50 0.85 to 83 ms, chunks then holding one worker
 * for longer (docs/benchmarks.md, "Inline tail").
 */
export const INTERACTIVE_RESERVE_MS = 0;

/** Two FIFO queues: interactive first, but never more than INTERACTIVE_STREAK in a row while bulk waits. */
export class Lanes<T> {
  private readonly queues: Record<Lane, T[]> = { interactive: [], bulk: [] };
  private streak = 0;

  /** Items waiting in both lanes. */
  get size(): number {
    return this.queues.interactive.length + this.queues.bulk.length;
  }

  /** Items waiting in the bulk lane. */
  get bulkSize(): number {
    return this.queues.bulk.length;
  }

  push(lane: Lane, item: T): void {
    this.queues[lane].push(item);
  }

  /**
   * The next item to dispatch, or undefined when nothing may go. With `allowBulk`
   * false (the pool keeps its last free worker for interactive tasks) only an interactive item is
   * taken; a waiting bulk item then still counts for the streak.
   */
  shift(allowBulk = true): T | undefined {
    const { interactive, bulk } = this.queues;
    const takeBulk = allowBulk && bulk.length > 0 && (interactive.length === 0 || this.streak >= INTERACTIVE_STREAK);
    const item = takeBulk ? bulk.shift() : interactive.shift();
    if (item === undefined) return undefined;
    // The streak counts only while a bulk task is kept waiting.
    this.streak = takeBulk || bulk.length === 0 ? 0 : this.streak + 1;
    return item;
  }

  /** Removes and returns every waiting item (closing). */
  clear(): T[] {
    const all = [...this.queues.interactive, ...this.queues.bulk];
    this.queues.interactive.length = 0;
    this.queues.bulk.length = 0;
    this.streak = 0;
    return all;
  }
}
