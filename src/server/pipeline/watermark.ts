/** @module server/pipeline/watermark: `wm_<8 hex>` per key and UTC day, recorded once for leak tracing (spec §1). */
import { createHmac } from 'node:crypto';
import type { KeyRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';

/**
 * Watermarks: `wm_` + the first 8 hex of HMAC-SHA256(watermark key, key id + UTC day). The same key
 * gets the same watermark all day, so a leaked response points at one key and day; the mapping is
 * written to LMDB once per key and day (`watermarks` database) for `admin watermarks show`.
 */
export class Watermarks {
  private readonly cache = new Map<string, string>();

  constructor(private readonly store: Store, private readonly secret: Buffer) {}

  /** The watermark of `key` at `nowMs`. */
  for(key: KeyRecord, nowMs: number): string {
    const dayNumber = Math.floor(nowMs / 86_400_000);
    const fastKey = `${key.key_id}|${dayNumber}`;
    let wm = this.cache.get(fastKey);
    if (wm === undefined) {
      const day = new Date(dayNumber * 86_400_000).toISOString().slice(0, 10);
      const cacheKey = `${key.key_id}|${day}`;
      wm = `wm_${createHmac('sha256', this.secret).update(cacheKey).digest('hex').slice(0, 8)}`;
      if (this.cache.size > 50_000) this.cache.clear();
      this.cache.set(fastKey, wm);
      void this.store.watermarks.put(wm, { key_id: key.key_id, org_id: key.org_id, day });
    }
    return wm;
  }
}
