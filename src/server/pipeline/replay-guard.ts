/** @module server/pipeline/replay-guard: remembers accepted non-GET signatures until they expire. */
import type { Store } from '../../store/store.js';

/** Keys sort by signing time: `<t padded to 12 digits>\0<signature hex>`. */
const keyOf = (t: number, signature: string): string => `${String(t).padStart(12, '0')}\u0000${signature}`;

/** Seconds between sweeps of expired signatures from LMDB. */
const SWEEP_INTERVAL_S = 30;

/**
 * Replay refusal (design notes: a non-GET request whose signature was already accepted within the
 * tolerance window gets 403). Accepted signatures are recorded in LMDB, so every server process on
 * the host refuses them; memory holds only those whose write has not committed yet (a few
 * milliseconds' worth), so the guard's footprint does not grow with traffic. A signature signed at
 * `t` can only be replayed while `now ≤ t + tolerance` (older ones fail the timestamp check), so
 * entries are swept once `t < now − tolerance`; keys sort by `t`, so a sweep reads only expired
 * entries.
 */
export class ReplayGuard {
  /** Accepted signatures whose LMDB write has not committed yet. */
  private readonly uncommitted = new Set<string>();
  private lastSweep = 0;

  constructor(private readonly store: Store, private readonly toleranceS: number) {}

  /** Accepted signatures still held in memory (their LMDB write has not committed yet). */
  get uncommittedCount(): number {
    return this.uncommitted.size;
  }

  /** Records `signature` (hex) signed at `t` (unix s). @returns false when it was already accepted. */
  accept(signature: string, t: number, nowS: number): boolean {
    this.sweep(nowS);
    const key = keyOf(t, signature);
    if (this.uncommitted.has(key) || this.store.signatures.get(key) !== undefined) return false;
    this.uncommitted.add(key);
    const forget = () => { this.uncommitted.delete(key); };
    this.store.signatures.put(key, t + this.toleranceS).then(forget, forget);
    return true;
  }

  private sweep(nowS: number): void {
    if (nowS - this.lastSweep < SWEEP_INTERVAL_S) return;
    this.lastSweep = nowS;
    const end = keyOf(nowS - this.toleranceS, '');
    void this.store.signatures.transaction(() => {
      for (const key of this.store.signatures.getKeys({ end, snapshot: false })) void this.store.signatures.remove(key);
    });
  }
}
