/**
 * @module server/pipeline/rate-limit: per-key fixed windows, a clock minute and a clock hour, enforced
 * independently (spec §8 rule 1; design notes "Rate limits") across every process on one DATA_DIR.
 * Each process leases slices of a window's budget from the shared store (one small write transaction
 * per slice) and admits requests from its local slice in memory, so the hot path reads two counters
 * once per event-loop turn and writes nothing; the leases of all processes never exceed the limit
 * (OWASP API4).
 */
import type { KeyRecord } from '../../model/records.js';
import type { Lease, RateLeases, RateWindow } from '../../store/rate-limits/repository.js';
import type { ApiResponse, RateState, RequestContext } from '../http/types.js';
import type { Stage } from './types.js';
import { isPromise, type Awaitable } from '../../store/awaitable.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';

/** A slice is this fraction (1/SLICE_DIVISOR) of the budget not yet leased, rounded up. */
export const SLICE_DIVISOR = 8;
/** Largest slice, in requests: bounds what a process that stops receiving requests leaves stranded until the window ends. */
export const MAX_SLICE = 1_000;

/**
 * Requests to lease when `unleased` requests of a window's budget are still unleased: 1/8 of them,
 * at least 1, at most MAX_SLICE. Large enough that a 100,000/min key takes a lease about once per
 * 1,000 requests; small enough that the processes of a 60/min key each get some (slices of 8, 7, 6, …)
 * and that an idle process strands at most 1/8 of what was left.
 */
export function sliceOf(unleased: number): number {
  return Math.min(MAX_SLICE, Math.max(1, Math.ceil(unleased / SLICE_DIVISOR)));
}

/** This process's share of one window. */
interface Local {
  id: number;
  /** The key's limit when the share was last checked: under a lowered limit the unused share is given back. */
  limit: number;
  /** Leased requests not yet admitted. */
  unused: number;
  /** What all processes had leased in this window when last read or granted, and the event-loop turn of that read. */
  seen: number;
  seenTurn: number;
  /** The lease on its way from a remote store (at most one per window), or null. */
  leasing: Promise<number> | null;
}

interface Entry {
  minute: Local;
  hour: Local;
}

/** Outcome of a hit. */
export interface RateDecision {
  readonly allowed: boolean;
  readonly state: RateState;
  /** Seconds until the exhausted window resets (429 only). */
  readonly retryAfter: number;
  /** The exhausted window (429 only). */
  readonly window?: RateWindow;
}

/**
 * Admits calls per key within the minute and hour limits of the key record, shared with every
 * other process that uses the same `RateLeases`.
 *
 * `X-RateLimit-Remaining` is the smaller over both windows of `max(0, limit − leased) + unused`: the
 * budget no process holds yet (read once per event-loop turn and after each grant to this process)
 * plus this process's unused slice. Never below 0. With one process it is exact (limit − admitted).
 * With several it never exceeds the limit minus what this process admitted, understates the true
 * remainder by the other processes' unused slices, and can overstate it only by what they admitted
 * since this turn's read.
 */
export class RateLimiter {
  private readonly entries = new Map<string, Entry>();
  /**
   * Event-loop turns, counted by a setImmediate scheduled on the turn's first hit. LMDB's read
   * snapshot is renewed once a turn, so a window's leased total is read once a turn (two reads per
   * call cost ~1.3 µs here, the rest of a hit ~0.1 µs).
   */
  private turn = 0;
  /** Returns of unused budget still on their way to a remote store (awaited by `release`). */
  private readonly returning = new Set<Promise<void>>();
  private turnPending = false;

  constructor(
    private readonly leases: RateLeases,
    /** Called when a background read or release of the shared budget fails (admission stays on the safe side). */
    private readonly onFailure: (error: unknown) => void = () => undefined,
  ) {}

  /**
   * Admits one call of `key` at `nowS` (unix seconds) unless the minute or the hour budget is
   * exhausted. Synchronous while this process holds budget or the store answers synchronously
   * (LMDB); a promise when a slice must be leased from a remote store (Redis).
   */
  hit(key: KeyRecord, nowS: number): Awaitable<RateDecision> {
    const minuteId = Math.floor(nowS / 60);
    const hourId = Math.floor(nowS / 3600);
    let entry = this.entries.get(key.key_id);
    if (!entry) {
      entry = { minute: local(minuteId, key.per_minute), hour: local(hourId, key.per_hour) };
      this.entries.set(key.key_id, entry);
    }
    if (!this.turnPending) {
      this.turnPending = true;
      setImmediate(() => {
        this.turn++;
        this.turnPending = false;
      });
    }
    const minute = this.current(key.key_id, 'minute', entry.minute, minuteId, key.per_minute);
    const hour = this.current(key.key_id, 'hour', entry.hour, hourId, key.per_hour);
    // A process's minute share never exceeds its hour share. Otherwise one process could hold minute
    // budget without hour budget while another holds hour budget without minute budget, and both
    // would refuse while the key has budget left in both windows (59 of 60 admitted, 3 processes).
    // So the hour is leased first, the minute at most up to the hour share; an hour share without
    // minute share is never stuck: its process leases minute budget while there is any, and after
    // that the minute's limit is reached anyway. Nor is budget spent for a refused call: a minute
    // slice is leased only with hour budget at hand.
    this.giveBack(key.key_id, 'minute', minute, minute.unused - hour.unused);
    return this.admit(key, minute, hour, nowS);
  }

  /**
   * Leases what is needed and admits or refuses. Decided after any wait for a remote store, when
   * another call of the key may have used the share leased meanwhile: the call then leases again
   * while its windows have budget left (each round takes a slice or learns the window is
   * exhausted, so the rounds end), instead of being refused with budget left. With a synchronous
   * store a share is never used up between the lease and the decision, so there is one round.
   */
  private admit(key: KeyRecord, minute: Local, hour: Local, nowS: number): Awaitable<RateDecision> {
    // Written without closures: the hot path (a synchronous store, budget at hand) allocates only the decision.
    const hourLeased = this.ensure(key.key_id, 'hour', hour, Infinity);
    return isPromise(hourLeased)
      ? hourLeased.then((leased) => this.admitMinute(key, minute, hour, nowS, leased))
      : this.admitMinute(key, minute, hour, nowS, hourLeased);
  }

  /** `admit` once the hour's share is known. */
  private admitMinute(
    key: KeyRecord,
    minute: Local,
    hour: Local,
    nowS: number,
    hourLeased: number,
  ): Awaitable<RateDecision> {
    const minuteLeased = hour.unused > 0 ? this.ensure(key.key_id, 'minute', minute, hour.unused) : 0;
    return isPromise(minuteLeased)
      ? minuteLeased.then((leased) => this.decide(key, minute, hour, nowS, hourLeased, leased))
      : this.decide(key, minute, hour, nowS, hourLeased, minuteLeased);
  }

  /** `admit` once both shares are known: admits, refuses, or leases again (see `admit`). */
  private decide(
    key: KeyRecord,
    minute: Local,
    hour: Local,
    nowS: number,
    hourLeased: number,
    minuteLeased: number,
  ): Awaitable<RateDecision> {
    const reset = (minute.id + 1) * 60;
    if (hour.unused <= 0 || minute.unused <= 0) {
      const more = hour.unused <= 0 ? hour.seen < hour.limit : minute.seen < minute.limit;
      if (more) return this.admit(key, minute, hour, nowS);
      const window: RateWindow = hour.unused <= 0 ? 'hour' : 'minute';
      const retryAfter = Math.max(1, window === 'hour' ? (hour.id + 1) * 3600 - nowS : reset - nowS);
      return { allowed: false, retryAfter, window, state: { limit: key.per_minute, remaining: 0, reset } };
    }
    minute.unused--;
    hour.unused--;
    const remaining = Math.min(remainingOf(minute, minuteLeased), remainingOf(hour, hourLeased));
    return { allowed: true, retryAfter: 0, state: { limit: key.per_minute, remaining, reset } };
  }

  /**
   * Keys of this process whose minute or hour window has used at least `ratio` of its limit, by
   * the estimate `leased − unused` (what all processes leased minus this process's unused share:
   * an upper bound of what was admitted). One read per window of each key this process has seen.
   */
  async nearLimit(
    nowS: number,
    limits: (keyId: string) => Awaitable<{ perMinute: number; perHour: number } | undefined>,
    ratio = 0.8,
  ): Promise<number> {
    const ids = { minute: Math.floor(nowS / 60), hour: Math.floor(nowS / 3600) };
    let n = 0;
    for (const [keyId, e] of this.entries) {
      const l = await limits(keyId);
      if (!l) continue;
      const used = async (window: RateWindow): Promise<number> => {
        const local = e[window];
        return (await this.leases.leased(keyId, window, ids[window])) - (local.id === ids[window] ? local.unused : 0);
      };
      if ((await used('minute')) >= ratio * l.perMinute || (await used('hour')) >= ratio * l.perHour) n++;
    }
    return n;
  }

  /** Gives this process's unused shares back to the shared budget (graceful shutdown); later hits lease again. */
  async release(): Promise<void> {
    for (const [keyId, e] of this.entries)
      for (const window of ['minute', 'hour'] as const) this.giveBack(keyId, window, e[window], e[window].unused);
    await Promise.all(this.returning);
  }

  /**
   * Rolls `local` to window `id` (the unused share of a window that ended is forgotten with it) and
   * applies the key's current `limit`. Lowered by the operator, the unused share is given back and
   * leased again under the new limit: dropped, it would stay leased and could exhaust the new limit.
   */
  private current(keyId: string, window: RateWindow, local: Local, id: number, limit: number): Local {
    if (local.id !== id) {
      local.id = id;
      local.unused = 0;
      local.seen = 0; // the new window's total is read below (at once from LMDB, in the background from a remote store)
      local.seenTurn = -1;
    } else if (limit < local.limit) {
      this.giveBack(keyId, window, local, local.unused);
    }
    local.limit = limit;
    return local;
  }

  /**
   * Returns `n` (if positive) of the unused share to the shared budget (one write transaction). From
   * a remote store the write goes on in the background, held in `returning` until it settles; a
   * failure is reported, and the budget stays leased until the window ends (the safe side).
   */
  private giveBack(keyId: string, window: RateWindow, local: Local, n: number): void {
    if (n <= 0) return;
    const released = this.leases.release(keyId, window, local.id, n);
    local.unused -= n;
    local.seenTurn = -1;
    if (!isPromise(released)) return;
    const settled: Promise<void> = released.then(
      () => {
        this.returning.delete(settled);
      },
      (error: unknown) => {
        this.returning.delete(settled);
        this.onFailure(error);
      },
    );
    this.returning.add(settled);
  }

  /**
   * Leases a slice of at most `cap` requests when the local share is used up; returns the window's
   * leased total as last seen. The total is read once per event-loop turn; from a remote store the
   * read does not hold the call up: the call goes on with the total last seen and the answer
   * updates it (it only feeds `X-RateLimit-Remaining` and skips leasing from an exhausted window;
   * grants are always decided by the store).
   */
  private ensure(keyId: string, window: RateWindow, local: Local, cap: number): Awaitable<number> {
    if (local.seenTurn !== this.turn) {
      local.seenTurn = this.turn;
      const id = local.id;
      const seen = this.leases.leased(keyId, window, id);
      if (isPromise(seen)) {
        seen.then((total) => {
          if (local.id === id) local.seen = Math.max(local.seen, total);
        }, this.onFailure);
      } else {
        local.seen = seen;
      }
    }
    if (local.unused > 0 || local.seen >= local.limit) return local.seen;
    // One lease at a time per window: calls that find the share empty while a lease is on its way
    // wait for it instead of each leasing a slice sized from the same stale total (a burst of N
    // calls on one node would otherwise lease N slices: the whole budget, stranded on that node).
    if (local.leasing) return local.leasing.then(() => this.ensure(keyId, window, local, cap));
    const id = local.id;
    const lease = this.leases.take(keyId, window, id, Math.min(cap, sliceOf(local.limit - local.seen)), local.limit);
    const apply = (granted: Lease): number => {
      local.leasing = null;
      // A grant of a window that ended meanwhile stays leased there (the safe side).
      if (local.id !== id) return local.seen;
      local.unused += granted.granted;
      local.seen = granted.leased;
      return granted.leased;
    };
    if (!isPromise(lease)) return apply(lease);
    local.leasing = lease.then(apply, (error: unknown) => {
      local.leasing = null;
      throw error;
    });
    return local.leasing;
  }
}

/** A share of window `id` that has leased nothing and read nothing yet. */
function local(id: number, limit: number): Local {
  return { id, limit, unused: 0, seen: 0, seenTurn: -1, leasing: null };
}

/** The remaining budget of one window as this process can tell it (see RateLimiter). */
function remainingOf(local: Local, leased: number): number {
  return Math.max(0, local.limit - leased) + local.unused;
}

/**
 * 429 `Rate limit exceeded` with `Retry-After` once a window is exhausted. Sets `ctx.rate`, from
 * which the adapter writes the `X-RateLimit-*` headers (spec §8 rule 2) on every later answer.
 */
export function rateLimit(
  limiter: RateLimiter,
  now: () => number,
  onLimited: (window: RateWindow) => void = () => undefined,
): Stage {
  const decide = (ctx: RequestContext, decision: RateDecision): ApiResponse | null => {
    ctx.rate = decision.state;
    if (decision.allowed) return null;
    onLimited(decision.window ?? 'minute');
    return fail(API_ERRORS.rateLimited, {
      detail: `Retry after ${decision.retryAfter} seconds`,
      headers: [['retry-after', String(decision.retryAfter)]],
    });
  };
  return function limitRate(_req, ctx) {
    const decision = limiter.hit(ctx.key!, Math.floor(now() / 1000));
    return isPromise(decision) ? decision.then((d) => decide(ctx, d)) : decide(ctx, decision);
  };
}
