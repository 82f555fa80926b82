/**
 * Cluster mode's shared chunk queue is fair between organizations (issue 31, item 1): a node that
 * runs one chunk job at a time (`CHUNK_CONCURRENCY=1`, one worker) takes, after the job it is
 * running, the first job of an organization that submitted after another's backlog, not the backlog
 * (each job's BullMQ priority is its place in its own organization's queue). Real redis-server,
 * signed HTTP. The order is read from the evaluations' `completed_at`: no duration is asserted.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importScenario } from '../../src/actors/scenarios.js';
import { pollEvaluation, type GovernanceClient } from '../../src/client/client.js';
import type { EvaluationStatus, Reply, StoredSubmitResult } from '../../src/client/responses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { redisClusterEnv } from '../helpers/redis-env.js';
import { dataOf } from '../helpers/assertions.js';
import { largeBlueprint } from '../helpers/blueprints.js';

const BATCHES_OF_A = 6;

describe('cluster mode: the chunk queue between organizations', () => {
  let t: TestServer;
  let b: { orgId: string; client: GovernanceClient };
  before(async () => {
    t = await startTestServer({ env: await redisClusterEnv({ CHUNK_CONCURRENCY: '1', POOL_THREADS: '1' }) });
    b = await t.addOrg('Organization B');
    const blueprint = JSON.stringify(largeBlueprint()); // ~210 modules: a chunk of 10 takes a while
    for (let i = 0; i < 10; i++) {
      await importScenario(t.server.store.scenarios, t.orgId, `a${i}`, blueprint);
      await importScenario(t.server.store.scenarios, b.orgId, `b${i}`, blueprint);
    }
  });
  after(() => t.close());

  it("runs a newcomer's batch right after the job running, ahead of another organization's backlog", async () => {
    const ids = (prefix: string) => Array.from({ length: 10 }, (_, i) => `${prefix}${i}`);
    const submit = async (client: GovernanceClient, scenarioIds: string[], n: number) => {
      const r = await client.call<Reply<StoredSubmitResult>>('POST', `/evaluate?n=${n}`, { scenario_ids: scenarioIds });
      assert.equal(r.status, 200, r.raw);
      return { client, id: dataOf(r).evaluation_id };
    };
    const a = [];
    for (let n = 0; n < BATCHES_OF_A; n++) a.push(await submit(t.client, ids('a'), n));
    const late = await submit(b.client, ids('b'), 100);
    const completedAt = async ({ client, id }: { client: GovernanceClient; id: string }) => {
      const done = await pollEvaluation<Reply<EvaluationStatus>>(client, id, { delaysMs: [100], timeoutMs: 60_000 });
      assert.equal(dataOf(done).status, 'complete', done.raw);
      return Date.parse(dataOf(done).completed_at!);
    };
    const aDone = await Promise.all(a.map(completedAt));
    const bDone = await completedAt(late);
    const aAfterB = aDone.filter((at) => at > bDone).length;
    // FIFO would finish B last (0 of A's after it); fair order finishes it after the one running and at
    // most one more that had started by the time B's job was queued.
    assert.ok(aAfterB >= BATCHES_OF_A - 2, `${aAfterB} of A's ${BATCHES_OF_A} batches finished after B's`);
  });
});
