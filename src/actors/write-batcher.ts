/**
 * @module actors/write-batcher: the evaluation actors' writes of one event-loop turn, committed in
 * one LMDB write transaction. Each `write` keeps its all-or-nothing unit (they share a transaction
 * that commits or fails as a whole), and rollup changes of every write are folded per organization
 * and applied once at the end, so a turn that lands results of fifty scenarios decodes and encodes
 * each organization's rollup once instead of fifty times.
 */
import type { RollupContribution } from '../store/records.js';
import type { Store } from '../store/store.js';
import { updateRollupMany } from './rollup.js';

/** A rollup change: a scenario's previous contribution (null when none) and its new one (null when removed). */
export type RollupChange = readonly [RollupContribution | null, RollupContribution | null];

/** Collects rollup changes inside a shared transaction. */
export interface RollupSink {
  /** Records a change of `orgId`'s rollup, applied when the shared transaction ends. */
  rollup(orgId: string, change: RollupChange): void;
}

/** Batches writes per event-loop turn into one transaction. */
export class WriteBatcher {
  private pending: ((sink: RollupSink) => void)[] = [];
  private scheduled: Promise<boolean> | null = null;

  constructor(private readonly store: Store, private readonly nowIso: () => string) {}

  /**
   * Queues `write` (LMDB puts and reads, no awaits) for the transaction of this turn.
   * @returns a promise that resolves when that transaction committed (not yet flushed to disk).
   */
  add(write: (sink: RollupSink) => void): Promise<boolean> {
    this.pending.push(write);
    this.scheduled ??= new Promise<boolean>((resolve, reject) => {
      setImmediate(() => {
        const writes = this.pending;
        this.pending = [];
        this.scheduled = null;
        this.store.root.transaction(() => this.run(writes)).then(resolve, reject);
      });
    });
    return this.scheduled;
  }

  private run(writes: readonly ((sink: RollupSink) => void)[]): boolean {
    const changes = new Map<string, RollupChange[]>();
    const sink: RollupSink = {
      rollup(orgId, change) {
        const list = changes.get(orgId);
        if (list) list.push(change);
        else changes.set(orgId, [change]);
      },
    };
    for (const write of writes) write(sink);
    const nowIso = this.nowIso();
    for (const [orgId, list] of changes) updateRollupMany(this.store, orgId, list, nowIso);
    return true;
  }
}
