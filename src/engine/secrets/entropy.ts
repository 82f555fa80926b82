/** @module engine/secrets/entropy: Shannon entropy, the randomness test of gitleaks and TruffleHog generic detectors. */

/** Shannon entropy of `s` in bits per character (0 for an empty string; log2 of the alphabet at most). */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let h = 0;
  for (const c of counts.values()) {
    const p = c / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}
