/** The organization rollup over a fleet of 1,000 generated scenarios equals a from-scratch recomputation, through re-evaluation and deletion. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importScenario } from '../../src/actors/scenarios.js';
import { rollupView } from '../../src/api/views/rollup.js';
import { pollEvaluation } from '../../src/client/client.js';
import type { EvaluationStatus, Reply, StoredSubmitResult } from '../../src/client/responses.js';
import { exampleBlueprints, variant } from '../../src/fleet/variants.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dataOf, type RollupView } from './bodies.js';

const FLEET = 1000;

describe('organization rollup', () => {
  let t: TestServer;
  let other: Awaited<ReturnType<TestServer['addOrg']>>;
  before(async () => {
    t = await startTestServer({ env: { POOL_THREADS: '2' } });
    other = await t.addOrg('Other');
    const examples = exampleBlueprints();
    for (let i = 0; i < FLEET; i++)
      await importScenario(t.server.store.scenarios, t.orgId, `fleet-${i}`, JSON.stringify(variant(i, examples)));
    await importScenario(t.server.store.scenarios, other.orgId, 'theirs', JSON.stringify(variant(0, examples)));
  });
  after(() => t.close());

  async function evaluate(ids: string[]): Promise<void> {
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < ids.length; i += 10) {
      const submit = await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', {
        scenario_ids: ids.slice(i, i + 10),
      });
      assert.equal(submit.status, 200, submit.raw);
      pending.push(
        pollEvaluation<Reply<EvaluationStatus>>(t.client, dataOf(submit).evaluation_id, {
          delaysMs: [100, 200],
          timeoutMs: 120_000,
        }),
      );
      if (pending.length >= 8) await Promise.all(pending.splice(0));
    }
    await Promise.all(pending);
    await t.server.store.flushed();
  }

  async function expectConsistent(): Promise<RollupView> {
    const res = await t.client.call<Reply<RollupView>>('GET', '/organization/rollup');
    assert.equal(res.status, 200, res.raw);
    const fromScratch = rollupView(await t.server.store.results.computeRollup(t.orgId, 'x'));
    const rollup = dataOf(res);
    const { updated_at: _a, ...got } = rollup;
    const { updated_at: _b, ...want } = fromScratch;
    assert.deepEqual(got, want);
    return rollup;
  }

  it('starts empty and counts imported scenarios', async () => {
    const d = await expectConsistent();
    assert.equal(d.scenarios_total, FLEET);
    assert.equal(d.scenarios_evaluated, 0);
    assert.equal(d.score, null);
  });

  it('matches a recomputation after evaluating the whole fleet', async () => {
    await evaluate(Array.from({ length: FLEET }, (_, i) => `fleet-${i}`));
    const d = await expectConsistent();
    assert.equal(d.scenarios_evaluated, FLEET);
    assert.ok(d.top_violations.length > 0);
    for (const f of d.framework_coverage) {
      assert.ok(f.coverage >= 0 && f.coverage <= 1 && f.controls_met <= f.controls_total);
    }
    const theirs = dataOf(await other.client.call<Reply<RollupView>>('GET', '/organization/rollup'));
    assert.equal(theirs.scenarios_total, 1);
    assert.equal(theirs.scenarios_evaluated, 0, 'another organization sees nothing of this fleet');
  });

  it('replaces contributions on re-evaluation and removes them on deletion', async () => {
    await importScenario(t.server.store.scenarios, t.orgId, 'fleet-1', JSON.stringify(variant(5001)));
    await evaluate(['fleet-1', 'fleet-2', 'fleet-3']);
    await expectConsistent();
    for (let i = 0; i < 25; i++) await t.server.store.scenarios.delete(t.orgId, `fleet-${i}`, new Date().toISOString());
    const d = await expectConsistent();
    assert.equal(d.scenarios_total, FLEET - 25);
    assert.equal(d.scenarios_evaluated, FLEET - 25);
  });
});
