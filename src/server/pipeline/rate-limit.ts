/**
 * @module server/pipeline/rate-limit: per-key fixed windows, a clock minute and a clock hour, counted
 * independently in LMDB (spec §8; design notes "Rate limits").
 * Hot path: each hit is counted in memory; increments are added to the LMDB counters in one batched
 * write transaction every FLUSH_INTERVAL_MS, which also reads back what other processes counted. One
 * process is exact; several processes on one host agree within one flush interval.
 */
import type { KeyRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { ApiResponse, RateState } from '../http/types.js';
import type { Stage } from './types.js';
import { k } from '../../store/store.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';

/** Interval between counter flushes to LMDB, in ms. */
export const FLUSH_INTERVAL_MS = 25;

interface Window {
  id: number;
  base: number;
  pending: number;
}

interface Entry {
  minute: Window;
  hour: Window;
}

/** Outcome of a hit. */
export interface RateDecision {
  readonly allowed: boolean;
  readonly state: RateState;
  /** Seconds until the exhausted window resets (429 only). */
  readonly retryAfter: number;
  /** The exhausted window (429 only). */
  readonly window?: 'minute' | 'hour';
}

/** Counts calls per key in LMDB-backed fixed windows. */
export class RateLimiter {
  private readonly entries = new Map<string, Entry>();
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly store: Store) {}

  /** Counts one call of `key` at `nowS` (unix seconds) unless a window is exhausted. */
  hit(key: KeyRecord, nowS: number): RateDecision {
    const minuteId = Math.floor(nowS / 60);
    const hourId = Math.floor(nowS / 3600);
    let entry = this.entries.get(key.key_id);
    if (!entry) {
      entry = { minute: this.load(key.key_id, 'm', minuteId), hour: this.load(key.key_id, 'h', hourId) };
      this.entries.set(key.key_id, entry);
    }
    if (entry.minute.id !== minuteId) entry.minute = this.roll(key.key_id, 'm', entry.minute, minuteId);
    if (entry.hour.id !== hourId) entry.hour = this.roll(key.key_id, 'h', entry.hour, hourId);
    const usedMinute = entry.minute.base + entry.minute.pending;
    const usedHour = entry.hour.base + entry.hour.pending;
    const reset = (minuteId + 1) * 60;
    if (usedMinute >= key.per_minute || usedHour >= key.per_hour) {
      const waits: number[] = [];
      if (usedMinute >= key.per_minute) waits.push(reset - nowS);
      if (usedHour >= key.per_hour) waits.push((hourId + 1) * 3600 - nowS);
      return { allowed: false, retryAfter: Math.max(1, ...waits), window: usedMinute >= key.per_minute ? 'minute' : 'hour', state: { limit: key.per_minute, remaining: 0, reset } };
    }
    entry.minute.pending++;
    entry.hour.pending++;
    this.dirty.add(key.key_id);
    this.schedule();
    const remaining = Math.max(0, Math.min(key.per_minute - usedMinute - 1, key.per_hour - usedHour - 1));
    return { allowed: true, retryAfter: 0, state: { limit: key.per_minute, remaining, reset } };
  }

  /** Keys that used at least `ratio` of their minute or hour window (cheap: this process's entries). */
  nearLimit(nowS: number, limits: (keyId: string) => { perMinute: number; perHour: number } | undefined, ratio = 0.8): number {
    let n = 0;
    for (const [keyId, e] of this.entries) {
      const l = limits(keyId);
      if (!l) continue;
      const minuteUsed = e.minute.id === Math.floor(nowS / 60) ? e.minute.base + e.minute.pending : 0;
      const hourUsed = e.hour.id === Math.floor(nowS / 3600) ? e.hour.base + e.hour.pending : 0;
      if (minuteUsed >= ratio * l.perMinute || hourUsed >= ratio * l.perHour) n++;
    }
    return n;
  }

  /** Writes pending increments now; resolves when committed. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.dirty.size === 0) return;
    const ids = [...this.dirty];
    this.dirty.clear();
    await this.store.rateCounters.transaction(() => {
      for (const id of ids) {
        const entry = this.entries.get(id);
        if (!entry) continue;
        for (const [kind, w] of [['m', entry.minute], ['h', entry.hour]] as const) {
          const dbKey = k(id, kind, w.id);
          const stored = this.store.rateCounters.get(dbKey) ?? 0;
          const total = stored + w.pending;
          if (w.pending > 0) void this.store.rateCounters.put(dbKey, total);
          w.base = total;
          w.pending = 0;
        }
      }
    });
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  private load(keyId: string, kind: 'm' | 'h', id: number): Window {
    return { id, base: this.store.rateCounters.get(k(keyId, kind, id)) ?? 0, pending: 0 };
  }

  private roll(keyId: string, kind: 'm' | 'h', old: Window, id: number): Window {
    if (old.pending > 0) {
      const dbKey = k(keyId, kind, old.id);
      void this.store.rateCounters.transaction(() => {
        void this.store.rateCounters.put(dbKey, (this.store.rateCounters.get(dbKey) ?? 0) + old.pending);
      });
    }
    void this.store.rateCounters.remove(k(keyId, kind, old.id - 2));
    return this.load(keyId, kind, id);
  }
}

/**
 * 429 `Rate limit exceeded` with `Retry-After` once a window is exhausted. Sets `ctx.rate`, from
 * which the adapter writes the `X-RateLimit-*` headers (spec §8 rule 2) on every later answer.
 */
export function rateLimit(limiter: RateLimiter, now: () => number, onLimited: (window: 'minute' | 'hour') => void = () => undefined): Stage {
  return function limitRate(_req, ctx): ApiResponse | null {
    const decision = limiter.hit(ctx.key!, Math.floor(now() / 1000));
    ctx.rate = decision.state;
    if (decision.allowed) return null;
    onLimited(decision.window ?? 'minute');
    return fail(API_ERRORS.rateLimited, { detail: `Retry after ${decision.retryAfter} seconds`, headers: [['retry-after', String(decision.retryAfter)]] });
  };
}
