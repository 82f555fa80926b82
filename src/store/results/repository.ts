/**
 * @module store/results/repository: the results aggregate read side: each stored scenario's latest results
 * (pre-rendered response bytes, remediation) and the organization rollup. They are written by
 * `EvaluationsRepository.commit`, in the transaction that records the evaluation's progress.
 */
import type { RemediationMap, RollupRecord } from '../../model/records.js';
import type { Awaitable } from '../awaitable.js';

/** Latest results and rollups. */
export interface ResultsRepository {
  /**
   * The latest results `data` JSON (UTF-8) of a scenario, or undefined when never evaluated. May be
   * a view of the backend's shared read buffer: valid until the next read of the store, so send or
   * copy it before reading anything else.
   */
  latestJson(orgId: string, scenarioId: string): Awaitable<Uint8Array | undefined>;
  /** The remediation `data` per violated policy of the scenario's latest results, or undefined when never evaluated. */
  remediation(orgId: string, scenarioId: string): Awaitable<RemediationMap | undefined>;
  /** The organization's rollup, or undefined when nothing was ever imported. */
  rollup(orgId: string): Awaitable<RollupRecord | undefined>;
  /** The rollup recomputed from the stored scenarios and results (O(fleet); must equal `rollup`). */
  computeRollup(orgId: string, nowIso: string): Awaitable<RollupRecord>;
  /** Replaces the stored rollup with `computeRollup` (admin `rollup rebuild`). */
  rebuildRollup(orgId: string, nowIso: string): Promise<RollupRecord>;
}
