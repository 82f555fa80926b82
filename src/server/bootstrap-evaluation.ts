/**
 * @module server/bootstrap-evaluation: the first start evaluates the demo scenarios once (issue 30),
 * so the console's overview shows a fleet score instead of an empty fleet.
 */
import type { EvaluationRecord, KeyRecord } from '../model/records.js';
import type { Store } from '../store/store.js';
import type { Evaluations } from '../actors/evaluations.js';
import type { ScenarioInput } from '../actors/evaluation-actor.js';
import { MAX_BATCH } from '../api/requests.js';

/**
 * Submits the stored scenarios `scenarioIds` of `key.org_id` as stored evaluations of at most MAX_BATCH
 * scenarios each (spec §8: 1 to 10 per batch), through `Evaluations.submit` as `POST /evaluate` with
 * `scenario_ids` does: the results, the rollup, the fleet index, the history and the evaluations per
 * day follow as for any evaluation. The evaluations carry `key_id` of `key` and no `trigger` (`api`),
 * and no result token is issued (nobody would redeem it). Resolves once they are stored and started,
 * not when they complete. Ids whose scenario or blueprint is not stored are left out.
 * @returns the evaluations submitted, in order (empty when none of the ids is stored)
 * @throws Error when the pool has no capacity for a batch (the batches before it stay submitted)
 */
export async function evaluateStoredScenarios(
  store: Store,
  evaluations: Evaluations,
  key: Pick<KeyRecord, 'org_id' | 'key_id'>,
  scenarioIds: readonly string[],
): Promise<EvaluationRecord[]> {
  const ids: string[] = [];
  const inputs: ScenarioInput[] = [];
  const versions: number[] = [];
  for (const id of scenarioIds) {
    const scenario = await store.scenarios.get(key.org_id, id);
    const blueprint = scenario && (await store.scenarios.blueprint(key.org_id, id, scenario.version));
    if (!scenario || !blueprint) continue;
    ids.push(id);
    inputs.push({ scenarioId: id, blueprint });
    versions.push(scenario.version);
  }
  const submitted: EvaluationRecord[] = [];
  for (let i = 0; i < ids.length; i += MAX_BATCH) {
    const batch = ids.slice(i, i + MAX_BATCH);
    if (!evaluations.hasCapacity(key.org_id, batch.length)) throw new Error('evaluation capacity exhausted');
    submitted.push(
      await evaluations.submit(key, 'stored', batch, inputs.slice(i, i + MAX_BATCH), versions.slice(i, i + MAX_BATCH)),
    );
  }
  return submitted;
}
