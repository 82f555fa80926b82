/**
 * @module actors/waivers/waiver-clock: what happens to waivers as time passes (issue 17). Every
 * `intervalMs` it reads the due indexes by the service clock: a waiver 7 days (`noticeMs`) from its
 * expiry sends `waiver.expiring` to the organization's subscribed endpoints, and an expired waiver's
 * scenario is re-evaluated, so its finding counts again in the results, the score and the rollup.
 * Each due entry is claimed (store: exactly one claimer of any node), so a cluster sends one notice
 * and runs one re-evaluation per waiver.
 */
import type { Store } from '../../store/store.js';
import type { Evaluations } from '../evaluations.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { WAIVER_EXPIRING } from '../webhooks/dispatcher.js';
import { waiverView } from '../../api/views/waiver.js';
import { reevaluateScenario } from './reevaluate.js';

/** Days ahead of expiry that `waiver.expiring` is sent (issue 17). */
export const WAIVER_NOTICE_MS = 7 * 86_400_000;
/** Due entries claimed per index and tick (bounded work; a later tick takes the rest). */
const BATCH = 100;

/** What one tick did. */
export interface WaiverTick {
  readonly notices: number;
  readonly expiries: number;
  /** Ids of the evaluations started for scenarios whose waiver expired. */
  readonly reevaluations: readonly string[];
}

/** Notices and expiries of waivers, by the service clock. */
export class WaiverClock {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly store: Store,
    private readonly evaluations: Evaluations,
    private readonly webhooks: WebhookDispatcher,
    private readonly now: () => number,
    private readonly intervalMs: number,
    /** A tick failed (it runs again at the next interval). */
    private readonly onFailure: (error: unknown) => void = () => undefined,
  ) {}

  /**
   * Claims and handles every due notice and expiry at the clock's time, in batches of BATCH.
   * Rejects when the store fails (entries not yet claimed stay due).
   */
  async tick(): Promise<WaiverTick> {
    const nowMs = this.now();
    const at = new Date(nowMs).toISOString();
    let notices = 0;
    let expiries = 0;
    const reevaluations: string[] = [];
    for (let due = await this.store.governance.dueWaivers('notice', nowMs, BATCH); due.length > 0;) {
      for (const d of due) {
        const w = await this.store.governance.claimDue('notice', d.orgId, d.waiverId, {
          at,
          actor: 'system',
          action: 'expiring_notified',
          detail: null,
        });
        if (!w) continue;
        notices++;
        await this.webhooks.announce(w.org_id, WAIVER_EXPIRING, w.waiver_id, { waiver: waiverView(w, at, false) });
      }
      if (due.length < BATCH) break;
      due = await this.store.governance.dueWaivers('notice', nowMs, BATCH);
    }
    const scenarios = new Set<string>();
    for (let due = await this.store.governance.dueWaivers('expiry', nowMs, BATCH); due.length > 0;) {
      for (const d of due) {
        const w = await this.store.governance.claimDue('expiry', d.orgId, d.waiverId, {
          at,
          actor: 'system',
          action: 'expired',
          detail: null,
        });
        if (!w) continue;
        expiries++;
        const key = `${w.org_id}\u0000${w.scenario_id}`;
        if (scenarios.has(key)) continue;
        scenarios.add(key);
        const started = await reevaluateScenario(this.store, this.evaluations, w.org_id, w.scenario_id);
        if (started) reevaluations.push(started.evaluation_id);
      }
      if (due.length < BATCH) break;
      due = await this.store.governance.dueWaivers('expiry', nowMs, BATCH);
    }
    return { notices, expiries, reevaluations };
  }

  /** Starts ticking (the timer does not keep the process alive; a tick still running is not started again). */
  start(): void {
    this.timer ??= setInterval(() => {
      this.running ??= this.tick()
        .catch((error: unknown) => this.onFailure(error))
        .finally(() => {
          this.running = null;
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Stops ticking and waits for a running tick. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
