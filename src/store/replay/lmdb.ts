/** @module store/replay/lmdb: ReplayRepository on LMDB (`signatures`: `<t, 12 digits>\0<signature>` → expiry). */
import type { AcceptedSignature, ReplayRepository } from './repository.js';
import type { LmdbTables } from '../lmdb/tables.js';
import { keysBelow } from '../lmdb/ranges.js';

/** Keys sort by signing time, so a sweep reads only the expired entries. */
const keyOf = (t: number, signature: string): string => `${String(t).padStart(12, '0')}\u0000${signature}`;

/** Accepted signatures in LMDB. */
export class LmdbReplay implements ReplayRepository {
  constructor(private readonly t: LmdbTables) {}

  has(signature: string, t: number): boolean {
    return this.t.signatures.get(keyOf(t, signature)) !== undefined;
  }

  /** One write transaction for the whole batch: the read and the write of each key happen under LMDB's write lock, across processes. */
  async record(accepted: readonly AcceptedSignature[]): Promise<AcceptedSignature[]> {
    if (accepted.length === 0) return [];
    return this.t.signatures.transaction(() => {
      const seen: AcceptedSignature[] = [];
      for (const a of accepted) {
        const key = keyOf(a.t, a.signature);
        if (this.t.signatures.get(key) !== undefined) seen.push(a);
        else void this.t.signatures.put(key, a.t);
      }
      return seen;
    });
  }

  /**
   * Exactly the entries with t < beforeT: a plain `end` bound of 13 units also took t = beforeT,
   * because keys of 64+ units (these have 77) are stored in another form (store/lmdb/ranges).
   */
  async sweep(beforeT: number): Promise<number> {
    const bound = keyOf(beforeT, '');
    return this.t.signatures.transaction(() => {
      let n = 0;
      for (const key of [...keysBelow(this.t.signatures, bound, { snapshot: false })]) {
        void this.t.signatures.remove(key);
        n++;
      }
      return n;
    });
  }
}
