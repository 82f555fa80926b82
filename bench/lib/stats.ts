/** @module bench/lib/stats: small statistics shared by the benchmarks. */

/** The upper median of `xs` (the middle element of the sorted copy; 0 for an empty list). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
