/** @module server/pipeline/replay-guard: remembers accepted non-GET signatures until they expire. */
import type { Store } from '../../store/store.js';
import { keysBelow } from '../../store/ranges.js';

/** Keys sort by signing time: `<t padded to 12 digits>\0<signature hex>`. */
const keyOf = (t: number, signature: string): string => `${String(t).padStart(12, '0')}\u0000${signature}`;

/** Seconds between sweeps of expired signatures from LMDB. */
const SWEEP_INTERVAL_S = 30;

/**
 * Milliseconds between writes of accepted signatures to LMDB (as the rate counters'). One write
 * transaction per POST cost a commit and a disk sync each (~120 µs of I/O threads per inline call
 * at 1,250 calls/s, competing with the workers for the cores); batched, it is ~40 a second.
 */
export const REPLAY_FLUSH_INTERVAL_MS = 25;

/**
 * Replay refusal (design notes: a non-GET request whose signature was already accepted within the
 * tolerance window gets 403). Accepted signatures are recorded in LMDB, so every server process on
 * the host refuses them, in one write every REPLAY_FLUSH_INTERVAL_MS; this process refuses them at
 * once from memory, which holds only those whose write has not committed yet (a few tens of
 * milliseconds' worth), so the guard's footprint does not grow with traffic. Another process on
 * the host sees a signature once its batch committed (within ~25 ms). A signature signed at
 * `t` can only be replayed while `now ≤ t + tolerance` (older ones fail the timestamp check), so
 * entries are swept once `t < now − tolerance`; keys sort by `t`, so a sweep reads only expired
 * entries.
 */
export class ReplayGuard {
  /** Accepted signatures whose LMDB write has not committed yet. */
  private readonly uncommitted = new Set<string>();
  /** Accepted signatures not yet handed to LMDB: key → expiry (unix s). */
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
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
    this.pending.set(key, t + this.toleranceS);
    if (this.timer === null) {
      this.timer = setTimeout(() => { void this.flush(); }, REPLAY_FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
    return true;
  }

  /** Writes the accepted signatures not yet written, in one transaction; resolves when it committed (shutdown, tests). */
  async flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const forget = () => { for (const key of batch.keys()) this.uncommitted.delete(key); };
    await this.store.signatures.transaction(() => {
      for (const [key, expiry] of batch) void this.store.signatures.put(key, expiry);
    }).then(forget, forget);
  }

  private sweep(nowS: number): void {
    if (nowS - this.lastSweep < SWEEP_INTERVAL_S) return;
    this.lastSweep = nowS;
    // Exactly the entries with t < now − tolerance: a plain `end` bound of 13 units also took t = now − tolerance,
    // still replayable, because keys of 64+ units (these have 77) are stored in another form (store/ranges).
    const bound = keyOf(nowS - this.toleranceS, '');
    void this.store.signatures.transaction(() => {
      for (const key of [...keysBelow(this.store.signatures, bound, { snapshot: false })]) void this.store.signatures.remove(key);
    });
  }
}
