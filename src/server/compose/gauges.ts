/** @module server/compose/gauges: gauges read at scrape time (pool, store sizes, open evaluations, keys near their limit). */
import type { EvaluationPool } from '../../actors/pool.js';
import type { Store } from '../../store/store.js';
import type { RateLimiter } from '../pipeline/rate-limit.js';
import type { Metrics } from '../metrics.js';
import type { Clock } from './tokens.js';
import type { ChunkQueueCounts } from '../../actors/cluster/chunk-queue.js';

/**
 * Registers the scrape-time collection of every gauge. O(open evaluations + keys with budget), never
 * O(fleet). A store that cannot be reached (cluster mode) leaves its gauges as they were and sets
 * `gov_redis_up` 0: /metrics still answers, which is when operators need it most.
 */
export function collectGauges(
  metrics: Metrics,
  pool: EvaluationPool,
  store: Store,
  limiter: RateLimiter,
  now: Clock,
  queueCounts: () => Promise<ChunkQueueCounts | null> = () => Promise.resolve(null),
): void {
  metrics.poolCapacity.set(pool.capacity);
  // The cluster's gauges would read 0 on a single LMDB node: not exported there.
  if (store.backend !== 'redis') metrics.dropClusterMetrics();
  metrics.onCollect(async () => {
    metrics.poolQueue.set(pool.queueSize);
    metrics.poolInFlight.set(pool.pending);
    metrics.poolWorkers.set(pool.threadCount);
    metrics.poolUtilization.set(pool.utilization);
    try {
      await collectStore(metrics, store, limiter, now);
      const counts = await queueCounts();
      if (counts)
        for (const state of ['waiting', 'active', 'delayed', 'failed'] as const)
          metrics.chunkQueueJobs.labels(state).set(counts[state]);
      if (store.backend === 'redis') metrics.redisUp.set(1);
    } catch (error) {
      if (!store.isUnavailable(error)) throw error;
      metrics.redisUp.set(0);
    }
  });
}

/** The store's gauges (sizes, open evaluations, keys near their limit). */
async function collectStore(metrics: Metrics, store: Store, limiter: RateLimiter, now: Clock): Promise<void> {
  const stats = await store.stats();
  if (stats.capacityBytes !== null) metrics.storeMapSize.set(stats.capacityBytes);
  metrics.storeUsed.set(stats.usedBytes);
  for (const [name, n] of Object.entries(stats.records)) metrics.storeRecords.labels(name).set(n);
  metrics.webhookOutbox.set(stats.outbox);
  const open = await store.evaluations.countOpen();
  metrics.evaluationsOpen.labels('pending').set(open.pending);
  metrics.evaluationsOpen.labels('processing').set(open.processing);
  metrics.keysNearLimit.set(
    await limiter.nearLimit(Math.floor(now() / 1000), async (id) => {
      const key = await store.organizations.getKey(id);
      return key ? { perMinute: key.per_minute, perHour: key.per_hour } : undefined;
    }),
  );
}
