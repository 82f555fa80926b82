/**
 * @module store/idempotency/lmdb: IdempotencyRepository on LMDB. `idempotency`: `<key id>\0<key>` →
 * IdempotencyRecord; `idempotency-expiry`: `<expires ms, 15 digits>\0<key id>\0<key>` → '' (the sweep
 * reads only expired entries; an entry whose record was since rewritten with a later expiry is
 * dropped without touching the record).
 */
import { randomUUID } from 'node:crypto';
import type { ClaimOutcome, IdempotencyRepository, StoredResponse } from './repository.js';
import type { LmdbTables } from '../lmdb/tables.js';
import { keysBelow } from '../lmdb/ranges.js';

const keyOf = (keyId: string, key: string): string => `${keyId}\u0000${key}`;
const expiryOf = (at: number, id: string): string => `${String(at).padStart(15, '0')}\u0000${id}`;

/** Idempotency records in LMDB. */
export class LmdbIdempotency implements IdempotencyRepository {
  constructor(private readonly t: LmdbTables) {}

  /** Read and write in one write transaction: LMDB's write lock makes it a conditional write across processes. */
  claim(keyId: string, key: string, fingerprint: string, now: number, runningUntil: number): Promise<ClaimOutcome> {
    const id = keyOf(keyId, key);
    return this.t.idempotency.transaction((): ClaimOutcome => {
      const held = this.t.idempotency.get(id);
      if (held !== undefined && held.e > now) {
        if (held.f !== fingerprint) return { kind: 'mismatch' };
        if (held.r === undefined) return { kind: 'running' };
        return { kind: 'done', response: { status: held.r.s, headers: held.r.h, body: Buffer.from(held.r.b) } };
      }
      const token = randomUUID();
      this.t.idempotency.putSync(id, { f: fingerprint, e: runningUntil, k: token });
      this.t.idempotencyExpiry.putSync(expiryOf(runningUntil, id), '');
      return { kind: 'claimed', token };
    });
  }

  complete(
    keyId: string,
    key: string,
    token: string,
    response: StoredResponse,
    _now: number,
    expiresAt: number,
  ): Promise<boolean> {
    const id = keyOf(keyId, key);
    return this.t.idempotency.transaction(() => {
      const held = this.t.idempotency.get(id);
      if (held?.k !== token || held.r !== undefined) return false;
      const r = { s: response.status, h: response.headers.map(([n, v]) => [n, v] as const), b: response.body };
      this.t.idempotency.putSync(id, { f: held.f, e: expiresAt, k: token, r });
      this.t.idempotencyExpiry.putSync(expiryOf(expiresAt, id), '');
      return true;
    });
  }

  release(keyId: string, key: string, token: string): Promise<boolean> {
    const id = keyOf(keyId, key);
    return this.t.idempotency.transaction(() => {
      const held = this.t.idempotency.get(id);
      if (held?.k !== token || held.r !== undefined) return false;
      this.t.idempotency.removeSync(id);
      return true;
    });
  }

  async sweep(now: number): Promise<number> {
    // Expired at `now` means e ≤ now: every index entry below now + 1.
    const bound = expiryOf(now + 1, '');
    return this.t.idempotency.transaction(() => {
      let n = 0;
      for (const entry of [...keysBelow(this.t.idempotencyExpiry, bound, { snapshot: false })]) {
        this.t.idempotencyExpiry.removeSync(entry);
        const id = entry.slice(16);
        const held = this.t.idempotency.get(id);
        if (held !== undefined && held.e <= now) {
          this.t.idempotency.removeSync(id);
          n++;
        }
      }
      return n;
    });
  }
}
