/** @module store/sign-in/lmdb: SignInThrottleRepository on LMDB (`sign-in-throttle`; LMDB serialises writers across processes). */
import { randomBytes } from 'node:crypto';
import type { ReservedKey, SignInThrottleRepository, ThrottleKey, ThrottleReservation } from './repository.js';
import type { LmdbTables, SignInThrottleRecord } from '../lmdb/tables.js';

/** The key's count (unforgiven failures and unsettled reservations). */
const counted = (r: SignInThrottleRecord): number => r.c - (r.f ?? 0) + (r.p ?? 0);

/** Sign-in attempt counters in LMDB: one record per key; each call is one write transaction over all its keys. */
export class LmdbSignInThrottle implements SignInThrottleRepository {
  constructor(private readonly t: LmdbTables) {}

  reserve(keys: readonly ThrottleKey[], nowMs: number, windowMs: number, lockMs: number): Promise<ThrottleReservation> {
    const db = this.t.signInThrottle;
    return this.t.root.transaction((): ThrottleReservation => {
      const before = keys.map(({ key }) => db.get(key));
      const lockedUntil = Math.max(0, ...before.map((r) => r?.l ?? 0));
      if (lockedUntil > nowMs) return { admitted: false, lockedUntil };
      const reserved = keys.map((k, i): ReservedKey => {
        const old = before[i];
        const fresh = !old || nowMs - old.s >= windowMs;
        const r: SignInThrottleRecord = fresh
          ? { c: 0, f: 0, p: 1, s: nowMs, l: 0, w: randomBytes(9).toString('base64url') }
          : { ...old, p: (old.p ?? 0) + 1, l: 0, w: old.w ?? randomBytes(9).toString('base64url') };
        if (counted(r) >= k.limit) r.l = nowMs + lockMs;
        db.putSync(k.key, r);
        return { ...k, window: r.w!, seen: r.c };
      });
      return { admitted: true, keys: reserved };
    });
  }

  async settle(keys: readonly ReservedKey[], outcome: 'failure' | 'success'): Promise<void> {
    const db = this.t.signInThrottle;
    await this.t.root.transaction(() => {
      for (const k of keys) {
        const old = db.get(k.key);
        if (!old || old.w !== k.window) continue; // the window ended meanwhile
        const r: SignInThrottleRecord = { ...old, p: Math.max(0, (old.p ?? 0) - 1) };
        if (outcome === 'failure') r.c += 1;
        else if (k.forgive) r.f = Math.max(r.f ?? 0, Math.min(k.seen, r.c));
        if (counted(r) < k.limit) r.l = 0;
        if (counted(r) === 0) db.removeSync(k.key);
        else db.putSync(k.key, r);
      }
    });
  }

  lockedUntil(keys: readonly string[], nowMs: number): number | null {
    let until = 0;
    for (const key of keys) until = Math.max(until, this.t.signInThrottle.get(key)?.l ?? 0);
    return until > nowMs ? until : null;
  }
}
