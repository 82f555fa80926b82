/**
 * @module store/evaluations/repository: the evaluations aggregate: the record (spec §3 state machine), its
 * pre-rendered status view, per-scenario results, the open index (crash recovery), the expiry index
 * (ephemeral purge), the completion index (retention) and result-token consumption (spec §3 rule 4).
 */
import type { DeliveryRecord, EvaluationRecord, RollupContribution, WebhookRecord } from '../../model/records.js';
import type { Awaitable } from '../awaitable.js';

/** The status view of an evaluation as stored: served to polls without decoding the record. */
export interface EvaluationView {
  readonly orgId: string;
  /** Epoch ms after which the (ephemeral) evaluation is gone, or null. */
  readonly expiresAt: number | null;
  /** The batch-level `error` as JSON, or null when none. */
  readonly errorJson: string | null;
  /**
   * The `data` JSON of GET /evaluations/{id} (UTF-8). May be a view of the backend's shared read
   * buffer: valid until the next read of the store, so send or copy it before reading anything else.
   */
  readonly json: Uint8Array;
}

/** The stored results of one scenario of a stored batch. */
export interface ScenarioResultWrite {
  /** Index of the scenario in the evaluation (`scenario_ids[index]`). */
  readonly index: number;
  /** `data` JSON of GET /scenarios/{id}/results (UTF-8), stored and served as is. */
  readonly results: Uint8Array;
  /** Remediation `data` per violated policy, msgpack-packed by the worker. */
  readonly remediation: Uint8Array;
  readonly contribution: RollupContribution;
  /** ISO 8601 time of the evaluation: a scenario's latest results are the ones with the latest time. */
  readonly evaluatedAt: string;
}

/** One state change of an evaluation, stored atomically. */
export interface EvaluationCommit {
  /** The new state (also rewrites the status view; a terminal one leaves the open index). */
  readonly record: EvaluationRecord;
  /**
   * Results of scenarios that finished (stored batches): each becomes the scenario's latest results
   * unless the scenario was deleted (or deleted and imported again, so that its version is below the
   * one evaluated) or a later evaluation's results landed first, and its rollup contribution
   * replaces the previous one.
   */
  readonly results?: readonly ScenarioResultWrite[];
  /**
   * For a terminal record: the events to deliver, given the organization's webhook endpoints as
   * stored in the same transaction; they enter the outbox atomically with the terminal state, so
   * no completed evaluation exists without its events across any crash.
   */
  readonly deliveries?: (endpoints: readonly WebhookRecord[]) => readonly DeliveryRecord[];
}

/** What a commit did beyond the record. */
export interface CommitReceipt {
  /** Endpoints that got a new delivery (to wake once the commit is durable). */
  readonly webhookIds: readonly string[];
}

/** What `update` did. */
export interface UpdateReceipt extends CommitReceipt {
  /** The record as stored by the update. */
  readonly record: EvaluationRecord;
}

/** Open evaluations by status (the `gov_evaluations_open` gauge). */
export interface OpenCounts {
  readonly pending: number;
  readonly processing: number;
}

/** Evaluations. */
export interface EvaluationsRepository {
  /** Stores a new evaluation (record, view, open index, expiry index). Resolves once durable. */
  create(record: EvaluationRecord): Promise<void>;
  /** The record, or undefined (unknown or purged). Expiry is the caller's business. */
  get(evaluationId: string): Awaitable<EvaluationRecord | undefined>;
  /** The stored status view, or undefined. */
  view(evaluationId: string): Awaitable<EvaluationView | undefined>;
  /**
   * Stores a state change atomically; a change of an evaluation deleted meanwhile (admin) writes
   * nothing, so it stays deleted. Resolves once committed (not yet durable: await
   * `Store.flushed()` before telling anyone outside); rejects when it was rolled back, leaving the
   * previous state in place.
   */
  commit(change: EvaluationCommit): Promise<CommitReceipt>;
  /**
   * A read-modify-write of one evaluation, atomic against every other writer of any process or node
   * (cluster mode: chunks of one evaluation finish on several nodes at once). `decide` gets the
   * stored record and returns the change to store (as for `commit`), or undefined to write nothing;
   * it must be a pure function of the record, since a backend may call it again after a conflict.
   * @returns undefined when the evaluation is unknown (or deleted) or `decide` declined; rejects
   *   when the write failed (nothing was written).
   */
  update(
    evaluationId: string,
    decide: (current: EvaluationRecord) => EvaluationCommit | undefined,
  ): Promise<UpdateReceipt | undefined>;
  /** The stored results JSON of scenario `index` of a stored evaluation (a copy), or undefined. */
  scenarioResults(evaluationId: string, index: number): Awaitable<Uint8Array | undefined>;
  /** Evaluations not yet terminal (crash recovery); index entries of terminal or missing records are dropped. */
  listOpen(): Awaitable<EvaluationRecord[]>;
  countOpen(): Awaitable<OpenCounts>;
  /**
   * Deletes the evaluations whose `expires_at` is before `nowMs`, except those for which
   * `busy(id)` is true (still owned by an actor; they go in a later round). @returns how many.
   */
  purgeExpired(nowMs: number, busy: (evaluationId: string) => boolean): Promise<number>;
  /**
   * Retention (`EVALUATION_RETENTION_DAYS`): deletes up to `limit` stored evaluations that retired
   * before `beforeMs` (epoch ms), oldest first. An evaluation retires when it becomes terminal
   * (`complete` or `error`), at its `completed_at` (store/evaluations/retirement `retiredAtMs`);
   * open evaluations are never deleted, and ephemeral ones are left to `purgeExpired`. Each goes as
   * with `delete`: record, status view, index entries and its per-scenario results, except results
   * that are still a scenario's latest, so GET /scenarios/{id}/results, the remediation and the
   * rollup do not change. Evaluations for which `busy(id)` is true are skipped (a later round takes
   * them) and do not count against `limit`. Reads only the retired part of the completion index,
   * which the terminal commit writes in its own transaction, never the whole store. Safe to run on
   * every node at once: an evaluation is deleted once, and only the caller that deleted it counts it.
   * Consumed result tokens stay (they are kept by token id, not by evaluation).
   * @param limit at most this many deletions per call (bounded work per transaction or script batch).
   * @returns how many evaluations this call deleted; fewer than `limit` means none was left for now.
   */
  purgeRetired(beforeMs: number, busy: (evaluationId: string) => boolean, limit: number): Promise<number>;
  /** Deletes an evaluation and its derived entries (a scenario's latest results stay). @returns false when unknown. */
  delete(evaluationId: string): Promise<boolean>;
  /** True when the result token `jti` was redeemed. */
  isTokenConsumed(jti: string): Awaitable<boolean>;
  /**
   * Records the redemption of result token `jti` if it was not redeemed before (a conditional
   * write: of N concurrent calls exactly one gets true). Resolves once durable.
   */
  consumeToken(jti: string, evaluationId: string, atMs: number): Promise<boolean>;
}
