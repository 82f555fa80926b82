/**
 * @module server/compose/redis-metrics: Redis round-trip latency (`gov_redis_command_seconds{command="ping"}`)
 * and reachability (`gov_redis_up`), from a PING through the store's own connection every
 * PROBE_INTERVAL_MS: it waits behind whatever the node's requests have queued on that connection,
 * so it is the latency a request sees. Chosen over ioredis's per-command diagnostics channel,
 * which builds a context per command (every argument turned into a string, a chunk's results
 * included) and cost ~3% of the main thread on signed reads (docs/benchmarks.md, "Cluster mode").
 */
import type { Store } from '../../store/store.js';
import type { Metrics } from '../metrics.js';

/** Interval of the probe, in ms. */
export const PROBE_INTERVAL_MS = 1_000;

/** Starts probing `store` (cluster mode). @returns the stop function. */
export function probeRedis(metrics: Metrics, store: Store): () => void {
  const probe = (): void => {
    const t0 = performance.now();
    Promise.resolve(store.probe()).then(
      () => {
        metrics.redisCommandSeconds.labels('ping').observe((performance.now() - t0) / 1000);
        metrics.redisUp.set(1);
      },
      () => metrics.redisUp.set(0),
    );
  };
  const timer = setInterval(probe, PROBE_INTERVAL_MS);
  timer.unref();
  probe();
  return () => clearInterval(timer);
}
