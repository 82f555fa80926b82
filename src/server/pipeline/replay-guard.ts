/** @module server/pipeline/replay-guard: remembers accepted non-GET signatures until they expire. */
import type { Store } from '../../store/store.js';

/** Keys sort by signing time: `<t padded to 12 digits>\0<signature hex>`. */
const keyOf = (t: number, signature: string): string => `${String(t).padStart(12, '0')}\u0000${signature}`;

/**
 * Replay refusal (design notes: a non-GET request whose signature was already accepted within the
 * tolerance window gets 403). Signatures live in memory (the fast path) and in LMDB (so another
 * server process on the host refuses them too, once the write committed). Both are ordered by
 * signing time, so expiring them touches only expired entries (no scans of the live window).
 */
export class ReplayGuard {
  private readonly seen = new Set<string>();
  /** Insertion-ordered `[t, key]` of `seen`; `t` is almost monotonic, so expiry pops from the front. */
  private readonly queue: [number, string][] = [];
  private head = 0;
  private lastSweep = 0;

  constructor(private readonly store: Store, private readonly toleranceS: number) {}

  /** Records `signature` (hex) signed at `t` (unix s). @returns false when it was already accepted. */
  accept(signature: string, t: number, nowS: number): boolean {
    this.sweep(nowS);
    const key = keyOf(t, signature);
    if (this.seen.has(key) || this.store.signatures.get(key) !== undefined) return false;
    this.seen.add(key);
    this.queue.push([t, key]);
    void this.store.signatures.put(key, t + this.toleranceS);
    return true;
  }

  private sweep(nowS: number): void {
    const oldest = nowS - this.toleranceS;
    while (this.head < this.queue.length && this.queue[this.head]![0] < oldest - this.toleranceS) {
      this.seen.delete(this.queue[this.head]![1]);
      this.head++;
    }
    if (this.head > 10_000 && this.head * 2 > this.queue.length) { this.queue.splice(0, this.head); this.head = 0; }
    if (nowS - this.lastSweep < 30) return;
    this.lastSweep = nowS;
    const end = keyOf(oldest - this.toleranceS, '');
    void this.store.signatures.transaction(() => {
      for (const key of this.store.signatures.getKeys({ end, snapshot: false })) void this.store.signatures.remove(key);
    });
  }
}
