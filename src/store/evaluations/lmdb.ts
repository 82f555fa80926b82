/**
 * @module store/evaluations/lmdb: EvaluationsRepository on LMDB. Tables: `evaluations` (id → record),
 * `evaluation-views` (id → pre-rendered status view), `evaluation-results` (`evaluation\0index` →
 * results JSON), `open-evaluations` (id → created_at), `expirations` (`<expires_at ms, 15 digits>\0id`),
 * `completions` (`<retired at ms, 15 digits>\0id`, retention), `consumed-tokens` (jti → redemption); a
 * commit also writes `results`, `latest-results`, `rollups`, `deliveries` and `outbox` in the same
 * transaction.
 */
import type { EvaluationRecord, ResultRecord, RollupContribution } from '../../model/records.js';
import type {
  CommitReceipt,
  EvaluationCommit,
  EvaluationView,
  EvaluationsRepository,
  OpenCounts,
  ScenarioResultWrite,
  UpdateReceipt,
} from './repository.js';
import type { LmdbTables } from '../lmdb/tables.js';
import type { RollupSink } from '../lmdb/write-batcher.js';
import { decodeStoredView, encodeStoredView } from './stored-view.js';
import { k, readFast, timeKey } from '../lmdb/tables.js';
import { keysBelow } from '../lmdb/ranges.js';
import { WriteBatcher } from '../lmdb/write-batcher.js';
import { enqueueDeliveries } from '../webhooks/lmdb.js';
import { prefixRange } from '../lmdb/ranges.js';
import { releaseLatest } from '../lmdb/latest-results.js';
import { isTerminal, retiredAtMs } from './retirement.js';
import { countCompletion, recordHistory, reindexFleet, storedFleetState } from '../fleet/lmdb.js';
import { historyEntry } from '../fleet/keys.js';

/** Expiry index key: expiry time padded so keys sort by time. */
const expirationKey = timeKey;

const NO_DELIVERIES: CommitReceipt = { webhookIds: [] };

/**
 * Evaluations in LMDB. Creates and commits go through a WriteBatcher: the writes of one event-loop
 * turn share one transaction, each in a child transaction so a failing one is rolled back alone
 * (measured: LMDB transactions were ~30% of the main thread's CPU per scenario under batch load,
 * docs/benchmarks.md "Batches"; a transaction per turn instead of per outcome, with one rollup
 * read and write per organization, is what keeps them there). Status views are rendered once per
 * state change and read with `readFast` (the poll is the hottest read of the signed-reads bench,
 * whose target is ≥ 0.6× a bare uWS server: no msgpack decode, no copy, no JSON encode).
 */
export class LmdbEvaluations implements EvaluationsRepository {
  private readonly writer: WriteBatcher;

  constructor(
    private readonly t: LmdbTables,
    nowIso: () => string,
  ) {
    this.writer = new WriteBatcher(t, nowIso);
  }

  async create(record: EvaluationRecord): Promise<void> {
    await this.writer.add(() => {
      this.put(record);
      this.t.openEvaluations.putSync(record.evaluation_id, record.status);
      if (record.expires_at !== null)
        void this.t.expirations.put(expirationKey(record.expires_at, record.evaluation_id), '');
    });
    await this.t.flushed();
  }

  get(evaluationId: string): EvaluationRecord | undefined {
    return this.t.evaluations.get(evaluationId);
  }

  /** Read with `readFast` and split in place: a poll decodes no msgpack and copies nothing. */
  view(evaluationId: string): EvaluationView | undefined {
    const raw = readFast(this.t.evaluationViews, evaluationId);
    return raw === undefined ? undefined : decodeStoredView(raw);
  }

  commit(change: EvaluationCommit): Promise<CommitReceipt> {
    return this.writer.add((sink) => {
      if (!this.t.evaluations.doesExist(change.record.evaluation_id)) return NO_DELIVERIES; // deleted by an operator meanwhile: stays deleted
      return this.apply(change, sink);
    });
  }

  /** Reads and writes in one (child) write transaction, which LMDB serialises with every other writer of every process. */
  update(
    evaluationId: string,
    decide: (current: EvaluationRecord) => EvaluationCommit | undefined,
  ): Promise<UpdateReceipt | undefined> {
    return this.writer.add((sink) => {
      const current = this.t.evaluations.get(evaluationId);
      const change = current && decide(current);
      if (!change) return undefined;
      return { ...this.apply(change, sink), record: change.record };
    });
  }

  /** Writes a change of an existing evaluation (inside a write transaction). */
  private apply(change: EvaluationCommit, sink: RollupSink): CommitReceipt {
    const { record } = change;
    if (record.kind === 'stored') for (const write of change.results ?? []) this.storeResult(record, write, sink);
    this.put(record);
    if (!isTerminal(record)) {
      // The open index keeps the status, so that countOpen (every /metrics scrape) reads no record.
      const indexed = this.t.openEvaluations.get(record.evaluation_id);
      if (indexed !== undefined && indexed !== record.status)
        this.t.openEvaluations.putSync(record.evaluation_id, record.status);
      return NO_DELIVERIES;
    }
    // Counted once: when it leaves the open index (a record made terminal again is not).
    if (record.status === 'complete' && this.t.openEvaluations.doesExist(record.evaluation_id))
      countCompletion(this.t, record);
    void this.t.openEvaluations.remove(record.evaluation_id);
    const retiredAt = retiredAtMs(record);
    if (retiredAt !== null) void this.t.completions.put(timeKey(retiredAt, record.evaluation_id), '');
    if (!change.deliveries) return NO_DELIVERIES;
    const endpoints = [...prefixRange(this.t.webhooks, [record.org_id])].map((e) => e.value);
    return { webhookIds: enqueueDeliveries(this.t, change.deliveries(endpoints)) };
  }

  scenarioResults(evaluationId: string, index: number): Uint8Array | undefined {
    return this.t.evaluationResults.get(k(evaluationId, index));
  }

  listOpen(): EvaluationRecord[] {
    const open: EvaluationRecord[] = [];
    const stale: string[] = [];
    for (const { key: id } of this.t.openEvaluations.getRange()) {
      const record = this.t.evaluations.get(id);
      if (!record || isTerminal(record)) stale.push(id);
      else open.push(record);
    }
    // Index entries of terminal records (a terminal commit removes them; this only repairs) are
    // dropped; a failed removal leaves them for the next start, which skips them again.
    if (stale.length > 0)
      this.t.openEvaluations
        .transaction(() => {
          for (const id of stale) void this.t.openEvaluations.remove(id);
        })
        .catch(() => undefined);
    return open;
  }

  /**
   * Counts from the open index's values alone (the status, kept by every commit); an entry written by
   * an earlier release holds its `created_at` instead, and its record is read.
   */
  countOpen(): OpenCounts {
    let pending = 0;
    let processing = 0;
    for (const { key, value } of this.t.openEvaluations.getRange()) {
      const status = value === 'pending' || value === 'processing' ? value : this.t.evaluations.get(key)?.status;
      if (status === 'pending') pending++;
      else processing++;
    }
    return { pending, processing };
  }

  /** Reads only the expired part of the expiry index. */
  async purgeExpired(nowMs: number, busy: (evaluationId: string) => boolean): Promise<number> {
    return this.t.root.transaction(() => {
      let purged = 0;
      for (const key of [...keysBelow(this.t.expirations, expirationKey(nowMs, ''))]) {
        const id = key.slice(key.indexOf('\u0000') + 1);
        if (busy(id)) continue;
        const record = this.t.evaluations.get(id);
        if (record) this.remove(record);
        void this.t.expirations.remove(key);
        purged++;
      }
      return purged;
    });
  }

  /**
   * Reads only the retired part of the completion index, lazily, up to `limit` evaluations not busy;
   * deletes them in one write transaction. An entry whose record is gone or retired later (a record
   * made terminal twice) is dropped without counting.
   */
  async purgeRetired(beforeMs: number, busy: (evaluationId: string) => boolean, limit: number): Promise<number> {
    return this.t.root.transaction(() => {
      const due: string[] = [];
      for (const key of keysBelow(this.t.completions, timeKey(beforeMs, ''))) {
        if (due.length >= limit) break;
        if (!busy(key.slice(key.indexOf('\u0000') + 1))) due.push(key);
      }
      let purged = 0;
      for (const key of due) {
        const record = this.t.evaluations.get(key.slice(key.indexOf('\u0000') + 1));
        void this.t.completions.remove(key);
        const retiredAt = record === undefined ? null : retiredAtMs(record);
        // Gone, open (never retired) or retired later (a stale entry; the later one stays): only the entry goes.
        if (record === undefined || retiredAt === null || retiredAt >= beforeMs) continue;
        this.remove(record);
        purged++;
      }
      return purged;
    });
  }

  async delete(evaluationId: string): Promise<boolean> {
    const deleted = await this.t.root.transaction(() => {
      const record = this.t.evaluations.get(evaluationId);
      if (!record) return false;
      this.remove(record);
      if (record.expires_at !== null)
        void this.t.expirations.remove(expirationKey(record.expires_at, record.evaluation_id));
      return true;
    });
    if (deleted) await this.t.flushed();
    return deleted;
  }

  isTokenConsumed(jti: string): boolean {
    return this.t.consumedTokens.get(jti) !== undefined;
  }

  /** `ifNoExists` is a conditional write checked inside LMDB's write transaction (PITFALLS 20). */
  async consumeToken(jti: string, evaluationId: string, atMs: number): Promise<boolean> {
    const won = await this.t.consumedTokens.ifNoExists(jti, () => {
      void this.t.consumedTokens.put(jti, { at: atMs, evaluation_id: evaluationId });
    });
    if (won) await this.t.flushed();
    return won;
  }

  /**
   * Writes a record and its pre-rendered view `<org>\n<expires_at ms or "">\n<batch error JSON or "">\n<data JSON>`
   * (inside a write transaction): rendered once per state change, so polls never render.
   */
  private put(record: EvaluationRecord): void {
    void this.t.evaluations.put(record.evaluation_id, record);
    void this.t.evaluationViews.put(record.evaluation_id, encodeStoredView(record));
  }

  /**
   * Stores one scenario's results (inside the commit's transaction) and reports its rollup change
   * to `sink`: the results become the scenario's latest unless it was deleted meanwhile or a later
   * evaluation's results landed first.
   */
  private storeResult(record: EvaluationRecord, write: ScenarioResultWrite, sink: RollupSink): void {
    const scenarioId = record.scenario_ids[write.index]!;
    const resultsKey = k(record.evaluation_id, write.index);
    void this.t.evaluationResults.put(resultsKey, write.results);
    const key = k(record.org_id, scenarioId);
    // Deleted meanwhile, or deleted and imported again (versions start again at 1): not its results.
    const scenario = this.t.scenarios.get(key);
    if (!scenario || scenario.version < (record.versions[write.index] ?? 0)) return;
    recordHistory(this.t, record.org_id, scenarioId, historyEntry(record.evaluation_id, write));
    const previous = this.t.results.get(key);
    if (previous && previous.evaluated_at > write.evaluatedAt) return;
    const replaced = this.t.latestResults.get(key);
    if (replaced !== resultsKey) releaseLatest(this.t, replaced);
    const next: ResultRecord = {
      evaluation_id: record.evaluation_id,
      evaluated_at: write.evaluatedAt,
      version: record.versions[write.index] ?? 0,
      remediation: write.remediation,
      contribution: write.contribution,
    };
    reindexFleet(
      this.t,
      record.org_id,
      storedFleetState(this.t, scenario, previous),
      storedFleetState(this.t, scenario, next),
    );
    void this.t.results.put(key, next);
    void this.t.latestResults.put(key, resultsKey);
    const change: readonly [RollupContribution | null, RollupContribution] = [
      previous?.contribution ?? null,
      write.contribution,
    ];
    sink.rollup(record.org_id, change);
  }

  /**
   * Removes a record and every derived entry but its expiry entry (inside a write transaction); a
   * scenario's results that are still its latest stay (releaseLatest drops them once replaced).
   */
  private remove(record: EvaluationRecord): void {
    void this.t.evaluations.remove(record.evaluation_id);
    void this.t.evaluationViews.remove(record.evaluation_id);
    void this.t.openEvaluations.remove(record.evaluation_id);
    const retiredAt = retiredAtMs(record);
    if (retiredAt !== null) void this.t.completions.remove(timeKey(retiredAt, record.evaluation_id));
    for (let i = 0; i < record.total_scenarios; i++) {
      const key = k(record.evaluation_id, i);
      const sid = record.scenario_ids[i];
      if (record.kind === 'stored' && sid !== undefined && this.t.latestResults.get(k(record.org_id, sid)) === key)
        continue;
      void this.t.evaluationResults.remove(key);
    }
  }
}
