/** @module store/rate-limits/lmdb: rate-limit leases in a small LMDB environment of their own, `<DATA_DIR>/rate.mdb`. */
import { open, type Database, type RootDatabase } from 'lmdb';
import type { Lease, RateLeases, RateWindow } from './repository.js';
import { prefixKeys } from '../lmdb/ranges.js';

/** Map size of the rate environment in bytes (256 MiB of address space; the file holds ~100 bytes per key and window and grows lazily). */
export const RATE_MAP_SIZE = 256 * 1024 ** 2;

/** `m` or `h`: the key part naming a window kind. */
const kindOf = (window: RateWindow): string => (window === 'minute' ? 'm' : 'h');
/** `key_id\0m\0` or `key_id\0h\0`: the prefix of a key's windows of one kind. */
const prefixOf = (keyId: string, window: RateWindow): string => `${keyId}\u0000${kindOf(window)}\u0000`;
/** Window ids zero-padded to 10 digits, so a key's windows sort by id (hours and minutes since 1970 have 6 and 8). */
const keyOf = (keyId: string, window: RateWindow, windowId: number): string =>
  prefixOf(keyId, window) + String(windowId).padStart(10, '0');

/**
 * Leases in LMDB: `key_id\0m\0<minute id>` / `key_id\0h\0<hour id>` → requests leased. Each grant is
 * one `transactionSync` (PITFALLS 19-20: a read-then-write inside a synchronous transaction holds
 * LMDB's cross-process write lock, so two processes never grant the same budget).
 *
 * Why a separate environment opened with `noSync`: rate state is volatile. A commit that syncs to
 * disk cost ~370 µs of a blocked event loop here, `noSync` ~13 µs; and in `gov.mdb` a grant would also
 * wait for the write lock behind other processes' batched, syncing commits. What `noSync` gives up is
 * durability across an operating-system crash: the file may then lose its last commits or be
 * damaged. Losing leases can only re-open budget of a window that is at most an hour old, and the
 * file holds nothing else: after a host crash an operator may delete `rate.mdb` (it is recreated).
 * A process crash (kill -9) loses nothing that was committed: the page cache survives it.
 */
export class LmdbRateLeases implements RateLeases {
  private readonly env: RootDatabase;
  private readonly db: Database<number, string>;

  /** Opens (or creates) the environment at `path`. Several processes may open the same path (PITFALLS 21). */
  constructor(path: string) {
    this.env = open({ path, noSync: true, mapSize: RATE_MAP_SIZE, maxDbs: 4 });
    this.db = this.env.openDB({ name: 'leases' });
  }

  take(keyId: string, window: RateWindow, windowId: number, want: number, limit: number): Lease {
    const key = keyOf(keyId, window, windowId);
    return this.db.transactionSync(() => {
      const stored = this.db.get(key);
      const leased = stored ?? 0;
      const granted = Math.max(0, Math.min(want, limit - leased));
      if (granted === 0) return { granted, leased };
      // The window's first grant: drop the windows before the previous one (a process may still be finishing the previous one).
      if (stored === undefined) {
        const older = [...prefixKeys(this.db, [keyId, kindOf(window)])].filter(
          (old) => Number(old.slice(old.lastIndexOf('\u0000') + 1)) < windowId - 1,
        );
        for (const old of older) this.db.removeSync(old);
      }
      this.db.putSync(key, leased + granted);
      return { granted, leased: leased + granted };
    });
  }

  leased(keyId: string, window: RateWindow, windowId: number): number {
    return this.db.get(keyOf(keyId, window, windowId)) ?? 0;
  }

  release(keyId: string, window: RateWindow, windowId: number, unused: number): void {
    if (unused <= 0) return;
    const key = keyOf(keyId, window, windowId);
    this.db.transactionSync(() => {
      const leased = this.db.get(key);
      if (leased !== undefined) this.db.putSync(key, Math.max(0, leased - unused));
    });
  }

  close(): Promise<void> {
    return this.env.close();
  }
}
