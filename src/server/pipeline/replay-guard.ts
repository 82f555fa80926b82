/** @module server/pipeline/replay-guard: remembers accepted non-GET signatures until they expire. */
import type { Store } from '../../store/store.js';

/**
 * Replay refusal (design notes: a non-GET request whose signature was already accepted within the
 * tolerance window gets 403). Signatures live in memory (the fast path) and in LMDB (so another
 * server process on the host refuses them too, once the write committed); both expire with the window.
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();
  private lastSweep = 0;

  constructor(private readonly store: Store) {}

  /**
   * Records `signature` (hex) until `expiresAtS` (unix s). @returns false when it was already accepted.
   */
  accept(signature: string, expiresAtS: number, nowS: number): boolean {
    this.sweep(nowS);
    const known = this.seen.get(signature) ?? this.store.signatures.get(signature);
    if (known !== undefined && known >= nowS) return false;
    this.seen.set(signature, expiresAtS);
    void this.store.signatures.put(signature, expiresAtS);
    return true;
  }

  private sweep(nowS: number): void {
    if (nowS - this.lastSweep < 30) return;
    this.lastSweep = nowS;
    for (const [sig, exp] of this.seen) if (exp < nowS) this.seen.delete(sig);
    void this.store.signatures.transaction(() => {
      for (const { key, value } of this.store.signatures.getRange({ snapshot: false })) if (value < nowS) void this.store.signatures.remove(key);
    });
  }
}
