/**
 * @module bench/lib/cpu-sampler: samples cumulative CPU counters (seconds, from /proc) at a fixed
 * interval, so that the CPU spent inside an interval known only afterwards (a batch run's first
 * `created_at` to its last `completed_at`, by the server's clock) can be read off by interpolation.
 */

/** A running sampler. */
export interface CpuSampler {
  /** Takes a last sample and stops sampling. */
  stop(): void;
  /**
   * CPU seconds each source spent between the epoch-ms times `fromMs` and `toMs` (linear
   * interpolation between the samples around each end; clamped to the sampled span).
   */
  between(fromMs: number, toMs: number): number[];
}

/** Starts sampling `sources` (each a cumulative CPU reading in seconds) every `everyMs` ms (default 50). */
export function sampleCpu(sources: readonly (() => number)[], everyMs = 50): CpuSampler {
  const times: number[] = [];
  const values: number[][] = [];
  const take = () => {
    times.push(Date.now());
    values.push(sources.map((s) => s()));
  };
  take();
  const timer = setInterval(take, everyMs);
  const at = (t: number, source: number): number => {
    if (t <= times[0]!) return values[0]![source]!;
    for (let i = 1; i < times.length; i++)
      if (times[i]! >= t) {
        const t0 = times[i - 1]!;
        const t1 = times[i]!;
        const v0 = values[i - 1]![source]!;
        const v1 = values[i]![source]!;
        return t1 === t0 ? v1 : v0 + ((v1 - v0) * (t - t0)) / (t1 - t0);
      }
    return values[values.length - 1]![source]!;
  };
  return {
    stop() {
      clearInterval(timer);
      take();
    },
    between: (fromMs, toMs) => sources.map((_, i) => at(toMs, i) - at(fromMs, i)),
  };
}
