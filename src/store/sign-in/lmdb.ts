/** @module store/sign-in/lmdb: SignInThrottleRepository on LMDB (`sign-in-throttle`; LMDB serialises writers across processes). */
import type { SignInThrottleRepository, ThrottleCount, ThrottleKey } from './repository.js';
import type { LmdbTables } from '../lmdb/tables.js';

/** Sign-in failure counters in LMDB: one record per key, changed in one write transaction per call. */
export class LmdbSignInThrottle implements SignInThrottleRepository {
  constructor(private readonly t: LmdbTables) {}

  recordFailure(
    keys: readonly ThrottleKey[],
    nowMs: number,
    windowMs: number,
    lockMs: number,
  ): Promise<ThrottleCount[]> {
    const db = this.t.signInThrottle;
    return this.t.root.transaction(() =>
      keys.map(({ key, limit }) => {
        const before = db.get(key);
        const fresh = !before || nowMs - before.s >= windowMs;
        const c = fresh ? 1 : before.c + 1;
        const s = fresh ? nowMs : before.s;
        const held = before && before.l > nowMs ? before.l : 0;
        const l = held || (c >= limit ? nowMs + lockMs : 0);
        db.putSync(key, { c, s, l });
        return { count: c, lockedUntil: l > 0 ? l : null };
      }),
    );
  }

  lockedUntil(keys: readonly string[], nowMs: number): number | null {
    let until = 0;
    for (const key of keys) until = Math.max(until, this.t.signInThrottle.get(key)?.l ?? 0);
    return until > nowMs ? until : null;
  }

  async reset(key: string): Promise<void> {
    await this.t.signInThrottle.remove(key);
  }
}
