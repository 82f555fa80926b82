/** @module server/compose/gauges: gauges read at scrape time (pool, store sizes, open evaluations, keys near their limit). */
import type { EvaluationPool } from '../../actors/pool.js';
import type { Store } from '../../store/store.js';
import type { RateLimiter } from '../pipeline/rate-limit.js';
import type { Metrics } from '../metrics.js';
import type { Clock } from './tokens.js';

/** Registers the scrape-time collection of every gauge. O(open evaluations + keys with budget), never O(fleet). */
export function collectGauges(
  metrics: Metrics,
  pool: EvaluationPool,
  store: Store,
  limiter: RateLimiter,
  now: Clock,
): void {
  metrics.poolCapacity.set(pool.capacity);
  metrics.onCollect(async () => {
    metrics.poolQueue.set(pool.queueSize);
    metrics.poolInFlight.set(pool.pending);
    metrics.poolWorkers.set(pool.threadCount);
    metrics.poolUtilization.set(pool.utilization);
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
  });
}
