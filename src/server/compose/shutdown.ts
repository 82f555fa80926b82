/** @module server/compose/shutdown: the graceful shutdown sequence, within SHUTDOWN_DEADLINE_MS (issue 13, item 14). */
import type { Evaluations } from '../../actors/evaluations.js';
import type { KeyUsage } from '../auth/key-usage.js';
import type { WaiverClock } from '../../actors/waivers/waiver-clock.js';
import type { ChunkWorker } from '../../actors/cluster/chunk-worker.js';
import type { EvaluationPool } from '../../actors/pool.js';
import type { WebhookDispatcher } from '../../actors/webhooks/dispatcher.js';
import type { Store } from '../../store/store.js';
import type { RateLimiter } from '../pipeline/rate-limit.js';
import type { ReplayGuard } from '../pipeline/replay-guard.js';
import type { AdapterControl } from '../uws/adapter.js';
import { settlesWithin } from '../settles-within.js';

/** What the sequence stops, in order. */
export interface ShutdownParts {
  readonly deadlineMs: number;
  /** Refuses new work (503 with Retry-After and Connection: close) and stops listening. */
  stopAccepting(): void;
  readonly adapter: AdapterControl;
  /** Stopped first: it starts evaluations (waiver expiry) and sends notices. */
  readonly waiverClock: Pick<WaiverClock, 'stop'>;
  readonly evaluations: Evaluations;
  /** Cluster mode: this node's consumer of chunk jobs, or null. */
  readonly chunkWorker: ChunkWorker | null;
  readonly limiter: RateLimiter;
  readonly replayGuard: ReplayGuard;
  readonly webhooks: WebhookDispatcher;
  readonly pool: EvaluationPool;
  /** Closes the HTTP and ops listeners' apps. */
  closeListeners(): void;
  /** Written last before the store closes, once no request can mark a key any more. */
  readonly keyUsage: Pick<KeyUsage, 'stop'>;
  readonly store: Store;
}

/**
 * Stops taking work at once, finishes what can finish within the deadline (minus a reserve for
 * stopping the pool, the flushes and closing the store), leaves the rest open in the store (it
 * resumes at the next start), and closes everything. @returns a promise that settles once.
 */
export async function shutdown(p: ShutdownParts): Promise<void> {
  const deadline = performance.now() + p.deadlineMs;
  const reserveMs = Math.min(2000, Math.floor(p.deadlineMs / 4));
  p.stopAccepting();
  await p.waiverClock.stop();
  const drained = await settlesWithin(
    Promise.all([p.evaluations.drain(), p.adapter.idle(), p.chunkWorker?.close()]),
    deadline - reserveMs - performance.now(),
  );
  if (!drained) {
    p.evaluations.halt();
    // Its unfinished chunk jobs stall and move to another node once their locks expire.
    await p.chunkWorker?.halt();
  } else p.evaluations.stopPurging();
  await p.limiter.release();
  await p.replayGuard.flush();
  await p.webhooks.stop();
  await p.pool.close(!drained);
  // Requests whose pool task the forced close ended are answered (503) before connections close.
  await settlesWithin(p.adapter.idle(), Math.min(250, deadline - performance.now()));
  p.closeListeners();
  await p.evaluations.closeQueue();
  await p.keyUsage.stop();
  await p.store.close();
}
