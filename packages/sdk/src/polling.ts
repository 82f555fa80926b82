/**
 * @module sdk/polling: the spec's polling guidance (public-api-v1 §8 rule 4): a 2-second cadence by default;
 * for batches of 5 or more scenarios a backoff of 2, 3, 5, 8 seconds (then every 8 s); polling stops at a
 * terminal status (`complete` or `error`, §3 rule 2).
 */

/** Batches of at least this many scenarios poll with the backoff (spec §8 rule 4). */
export const BACKOFF_FROM_SCENARIOS = 5;
/** The default cadence, in milliseconds (spec §8 rule 4). */
export const DEFAULT_CADENCE_MS: readonly number[] = [2000];
/** The suggested backoff for batches of 5 or more, in milliseconds; the last value repeats (spec §8 rule 4). */
export const BATCH_BACKOFF_MS: readonly number[] = [2000, 3000, 5000, 8000];

/** The terminal evaluation statuses (spec §3 rule 2). */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['complete', 'error']);

/**
 * The wait before poll number `poll + 1`, in milliseconds.
 * @param poll how many polls were made already (1 after the first)
 * @param totalScenarios the batch size; `undefined` (not known yet) polls at the default cadence
 * @param schedule an explicit schedule overriding the spec's (the last value repeats)
 */
export function pollDelay(poll: number, totalScenarios: number | undefined, schedule?: readonly number[]): number {
  const delays =
    schedule && schedule.length > 0
      ? schedule
      : (totalScenarios ?? 0) >= BACKOFF_FROM_SCENARIOS
        ? BATCH_BACKOFF_MS
        : DEFAULT_CADENCE_MS;
  return delays[Math.min(Math.max(poll - 1, 0), delays.length - 1)]!;
}
