/** @module server/pipeline/watermark: `wm_<8 hex>` per key and UTC day, recorded once for leak tracing (spec §1). */
import { createHmac } from 'node:crypto';
import type { KeyRecord } from '../../model/records.js';
import type { OrganizationsRepository } from '../../store/organizations/repository.js';

/**
 * Watermarks: `wm_` + the first 8 hex of HMAC-SHA256(watermark key, key id + UTC day). The same key
 * gets the same watermark all day, so a leaked response points at one key and day; the mapping is
 * recorded in the store once per key and day for `admin watermarks show`.
 */
export class Watermarks {
  /** Per key id: the day number and watermark last computed (one entry per key, no string keys built per request). */
  private readonly cache = new Map<string, { day: number; wm: string }>();

  constructor(
    private readonly store: OrganizationsRepository,
    private readonly secret: Buffer,
    /** Called when a watermark could not be recorded (it is recorded again on the key's next request). */
    private readonly onFailure: (error: unknown) => void = () => undefined,
  ) {}

  /** The watermark of `key` at `nowMs`. */
  for(key: KeyRecord, nowMs: number): string {
    const dayNumber = Math.floor(nowMs / 86_400_000);
    const cached = this.cache.get(key.key_id);
    if (cached !== undefined && cached.day === dayNumber) return cached.wm;
    const day = new Date(dayNumber * 86_400_000).toISOString().slice(0, 10);
    const wm = `wm_${createHmac('sha256', this.secret).update(`${key.key_id}|${day}`).digest('hex').slice(0, 8)}`;
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(key.key_id, { day: dayNumber, wm });
    // A failed write forgets the cached watermark, so the next request of this key writes it again.
    this.store.recordWatermark(wm, { key_id: key.key_id, org_id: key.org_id, day }).catch((error: unknown) => {
      this.cache.delete(key.key_id);
      this.onFailure(error);
    });
    return wm;
  }
}
