/**
 * @module actors/waivers/reevaluate: the service's own re-evaluation of a stored scenario after one
 * of its waivers was created, revoked or expired (issue 17): the scenario's results, score and the
 * rollup change through the ordinary evaluation path (exactly-once rollup, webhooks, both
 * backends), with no write by the tenant. The evaluation is marked `trigger: "waiver"`.
 */
import type { EvaluationRecord } from '../../model/records.js';
import type { Store } from '../../store/store.js';
import type { Evaluations } from '../evaluations.js';

/** The key id recorded on evaluations the service starts itself. */
export const SYSTEM_KEY_ID = 'system';

/**
 * Submits a one-scenario stored evaluation of the current blueprint version. @returns the
 * evaluation, or null when the scenario (or its blueprint) no longer exists.
 */
export async function reevaluateScenario(
  store: Store,
  evaluations: Evaluations,
  orgId: string,
  scenarioId: string,
): Promise<EvaluationRecord | null> {
  const scenario = await store.scenarios.get(orgId, scenarioId);
  if (!scenario) return null;
  const blueprint = await store.scenarios.blueprint(orgId, scenarioId, scenario.version);
  if (!blueprint) return null;
  return evaluations.submit(
    { org_id: orgId, key_id: SYSTEM_KEY_ID },
    'stored',
    [scenarioId],
    [{ scenarioId, blueprint }],
    [scenario.version],
    'waiver',
  );
}
