/**
 * @module store/lmdb/write-batcher: the evaluation repository's writes of one event-loop turn, committed in
 * one LMDB write transaction. Each `write` runs in a child transaction of it, so a write that throws
 * is rolled back alone and only its own promise rejects (lmdb-js does not roll back what an
 * asynchronous transaction wrote before a throw: PITFALLS 19); rollup changes of the writes that
 * succeeded are folded per organization and applied once at the end, so a turn that lands results of
 * fifty scenarios decodes and encodes each organization's rollup once instead of fifty times.
 */
import type { RollupContribution } from '../../model/records.js';
import type { LmdbTables } from './tables.js';
import { updateRollupMany } from './rollup-table.js';

/** A rollup change: a scenario's previous contribution (null when none) and its new one (null when removed). */
export type RollupChange = readonly [RollupContribution | null, RollupContribution | null];

/** Collects rollup changes inside a shared transaction. */
export interface RollupSink {
  /** Records a change of `orgId`'s rollup, applied when the shared transaction ends. */
  rollup(orgId: string, change: RollupChange): void;
}

/** A queued write and the promise it answers (with what the write returned). */
interface Queued {
  readonly write: (sink: RollupSink) => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  value?: unknown;
}

/** Batches writes per event-loop turn into one transaction. */
export class WriteBatcher {
  private pending: Queued[] = [];
  private scheduled = false;

  constructor(
    private readonly store: LmdbTables,
    private readonly nowIso: () => string,
  ) {}

  /**
   * Queues `write` (LMDB puts and reads, no awaits) for the transaction of this turn.
   * @returns a promise that resolves with what `write` returned when that transaction committed
   *   (not yet flushed to disk), and
   *   rejects with the error of `write` (its writes rolled back, the others' kept) or of the
   *   transaction (nothing of the turn written).
   */
  add<T>(write: (sink: RollupSink) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.commit());
    });
  }

  private commit(): void {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    const failed = new Map<Queued, unknown>();
    this.store.root
      .transaction(() => this.run(batch, failed))
      .then(
        () => {
          for (const q of batch) {
            if (failed.has(q)) q.reject(failed.get(q));
            else q.resolve(q.value);
          }
        },
        (error: unknown) => {
          for (const q of batch) q.reject(error);
        },
      );
  }

  private run(batch: readonly Queued[], failed: Map<Queued, unknown>): boolean {
    const changes = new Map<string, RollupChange[]>();
    for (const q of batch) {
      const own: [string, RollupChange][] = [];
      const sink: RollupSink = {
        rollup: (orgId, change) => {
          own.push([orgId, change]);
        },
      };
      try {
        // Nested in a write transaction, lmdb-js runs `transactionSync` as a child transaction, at once
        // and synchronously: aborted (rolled back) when the callback throws, which then throws here.
        q.value = this.store.root.transactionSync(() => q.write(sink));
      } catch (error) {
        failed.set(q, error);
        continue;
      }
      for (const [orgId, change] of own) {
        const list = changes.get(orgId);
        if (list) list.push(change);
        else changes.set(orgId, [change]);
      }
    }
    const nowIso = this.nowIso();
    for (const [orgId, list] of changes) updateRollupMany(this.store, orgId, list, nowIso);
    return true;
  }
}
