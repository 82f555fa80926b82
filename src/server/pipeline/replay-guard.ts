/** @module server/pipeline/replay-guard: remembers accepted non-GET signatures until they expire. */
import type { AcceptedSignature, ReplayRepository } from '../../store/replay/repository.js';
import { isPromise, type Awaitable } from '../../store/awaitable.js';

/** Seconds between sweeps of expired signatures from the store. */
const SWEEP_INTERVAL_S = 30;

/**
 * Milliseconds between writes of accepted signatures to the store (as the rate counters'). One write
 * transaction per POST cost a commit and a disk sync each (~120 µs of I/O threads per inline call
 * at 1,250 calls/s, competing with the workers for the cores); batched, it is ~40 a second.
 */
export const REPLAY_FLUSH_INTERVAL_MS = 25;

/**
 * Replay refusal (design notes: a non-GET request whose signature was already accepted within the
 * tolerance window gets 403). Accepted signatures are recorded in the store, so every server process on
 * the host refuses them, in one write every REPLAY_FLUSH_INTERVAL_MS; this process refuses them at
 * once from memory, which holds only those whose write has not committed yet (a few tens of
 * milliseconds' worth), so the guard's footprint does not grow with traffic. Another process on
 * the host sees a signature once its batch committed (within ~25 ms). A signature signed at
 * `t` can only be replayed while `now ≤ t + tolerance` (older ones fail the timestamp check), so
 * entries are swept once `t < now − tolerance`; keys sort by `t`, so a sweep reads only expired
 * entries.
 */
export class ReplayGuard {
  /** Accepted signatures whose write has not committed yet: `t:signature`. */
  private readonly uncommitted = new Set<string>();
  /** Accepted signatures not yet handed to the store. */
  private pending: AcceptedSignature[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastSweep = 0;

  constructor(
    private readonly store: ReplayRepository,
    private readonly toleranceS: number,
    /** Called when a write or sweep of signatures fails (the guard stays correct within this process). */
    private readonly onFailure: (error: unknown) => void = () => undefined,
    /** Batch writes behind an in-memory set (embedded store); false: one conditional write per call (shared store). */
    private readonly writeBehind = true,
  ) {}

  /** Accepted signatures still held in memory (their write has not committed yet). */
  get uncommittedCount(): number {
    return this.uncommitted.size;
  }

  /**
   * Records `signature` (hex) signed at `t` (unix s). @returns false when it was already accepted.
   * Write-behind (an embedded store, whose reads are local): answered at once from memory and the
   * store's index, written in batches. Otherwise (a shared remote store, cluster mode): one atomic
   * conditional write per call, so that of N nodes receiving the same signature exactly one accepts.
   */
  accept(signature: string, t: number, nowS: number): Awaitable<boolean> {
    this.sweep(nowS);
    if (!this.writeBehind) return this.store.record([{ signature, t }]).then((known) => known.length === 0);
    const key = `${t}:${signature}`;
    if (this.uncommitted.has(key)) return false;
    const known = this.store.has(signature, t);
    if (isPromise(known)) return known.then((k) => !k && this.admit(key, signature, t));
    return !known && this.admit(key, signature, t);
  }

  /** Holds an accepted signature in memory until its batch is written. @returns true. */
  private admit(key: string, signature: string, t: number): boolean {
    if (this.uncommitted.has(key)) return false;
    this.uncommitted.add(key);
    this.pending.push({ signature, t });
    if (this.timer === null) {
      this.timer = setTimeout(() => {
        void this.flush();
      }, REPLAY_FLUSH_INTERVAL_MS); // flush() never rejects
      this.timer.unref();
    }
    return true;
  }

  /** Writes the accepted signatures not yet written, in one transaction; resolves when it committed (shutdown, tests). */
  async flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    try {
      await this.store.record(batch);
    } catch (error) {
      this.onFailure(error);
    } finally {
      for (const a of batch) this.uncommitted.delete(`${a.t}:${a.signature}`);
    }
  }

  private sweep(nowS: number): void {
    if (nowS - this.lastSweep < SWEEP_INTERVAL_S) return;
    this.lastSweep = nowS;
    // Exactly the entries with t < now − tolerance (t = now − tolerance is still replayable).
    this.store.sweep(nowS - this.toleranceS).catch(this.onFailure);
  }
}
