/**
 * @module actors/run-chunk: runs a chunk of an evaluation's scenarios on the pool until every
 * scenario has an outcome. A chunk that fails as a whole (a worker crash, a time-out) has its
 * unreported scenarios re-run one per chunk, and a scenario that fails alone gets the failure as
 * its outcome (spec §3 rule 1: one bad scenario does not fail the batch). Used by the evaluation
 * actor (one process) and by the chunk jobs of cluster mode.
 */
import type { EvaluationPool } from './pool.js';
import type { TaskFailure } from './task-failure.js';
import type { ChunkScenario, GovernanceTaskContext, ScenarioTaskResult } from './worker-protocol.js';

/**
 * Runs `chunk`, of organization `org` (the pool serves organizations fairly), and reports each scenario's outcome to `onOutcome` as it arrives (in any order, once
 * per scenario). Resolves when every scenario of the chunk has an outcome, or earlier when
 * `stopped()` turns true (shutdown: the rest is not run). Never rejects: failures are outcomes.
 */
export async function runChunk(
  pool: EvaluationPool,
  org: string,
  evaluationId: string,
  evaluatedAt: string,
  governance: GovernanceTaskContext,
  chunk: readonly ChunkScenario[],
  onOutcome: (index: number, result: ScenarioTaskResult | TaskFailure) => void,
  stopped: () => boolean = () => false,
): Promise<void> {
  if (stopped() || chunk.length === 0) return;
  const { unreported, failure } = await pool.runChunk(org, evaluationId, evaluatedAt, governance, chunk, onOutcome);
  if (failure === null) return;
  if (chunk.length === 1) {
    for (const index of unreported) onOutcome(index, failure);
    return;
  }
  await Promise.all(
    unreported.map((index) =>
      runChunk(
        pool,
        org,
        evaluationId,
        evaluatedAt,
        governance,
        chunk.filter((c) => c.index === index),
        onOutcome,
        stopped,
      ),
    ),
  );
}
