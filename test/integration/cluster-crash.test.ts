/**
 * Cluster mode (issue 16) with real node processes (`node dist/src/server/main.js`) on one Redis, killed
 * with SIGKILL while they hold chunk jobs: the chunks of a dead node move to the live nodes (CHUNK_LOCK_MS
 * 1 s) and every evaluation completes with exactly one summary per scenario, and the organization rollup
 * counts each scenario once; after all nodes die mid-batch, restarted nodes complete every evaluation and
 * none is left open.
 *
 * How chunks are held on purpose: the submitting node has GOV_ENABLE_FAULT_INJECTION=1, so its
 * `X-Gov-Fault: <id>=hang` header travels in the chunk jobs; a node with fault injection hangs on such a
 * chunk (its pool thread busy, its main thread renewing the job's lock), a node without it ignores the
 * fault and evaluates the chunk normally. So a chunk job stays active exactly as long as a node with
 * fault injection lives, and completes with real results once a node without it runs it.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { importScenario } from '../../src/actors/scenarios.js';
import { bullPrefix, CHUNK_QUEUE } from '../../src/actors/cluster/chunk-queue.js';
import { GovernanceClient } from '../../src/client/client.js';
import type { Reply, Rollup, ScenarioResults, StoredSubmitResult } from '../../src/client/responses.js';
import type { EvaluationRecord } from '../../src/model/records.js';
import { KeyService } from '../../src/server/auth/keys.js';
import { openRedisStore, type RedisStore } from '../../src/store/redis/store.js';
import { startService, type ServiceProcess } from '../helpers/process.js';
import { redisClusterEnv } from '../helpers/redis-env.js';
import { dataOf } from '../helpers/assertions.js';
import { bp, fakeToken, m } from '../helpers/blueprints.js';

const BATCH = 10;

/** Blueprints with different scores, by scenario number: a credential leak, a clean variable, an unhandled HTTP call. */
function blueprint(i: number): string {
  const shapes = [
    () =>
      bp([
        m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } }),
        m(2, 'http:ActionSendData', {
          mapper: {
            url: 'https://api.example.com/x',
            headers: [{ name: 'Authorization', value: `Bearer ${fakeToken(i + 1, 40)}` }],
          },
        }),
      ]),
    () => bp([m(1, 'util:SetVariable2', { mapper: { name: `v${i}`, value: 'x' } })]),
    () =>
      bp([m(1, 'http:ActionSendData', { mapper: { url: `https://api.example.com/${i}`, method: 'get' } })], {
        dlq: false,
      }),
  ];
  return JSON.stringify(shapes[i % shapes.length]!());
}

/** One cluster under test: its environment, the store opened from the test process, the organization's key, the chunk queue. */
interface Cluster {
  readonly env: Record<string, string>;
  readonly store: RedisStore;
  readonly orgId: string;
  readonly credentials: { apiKey: string; signingSecret: string };
  readonly queue: Queue;
  readonly connection: Redis;
  readonly dataDirs: string[];
  readonly nodes: ServiceProcess[];
}

/** A fresh cluster prefix with one organization, one key and `scenarios` imported scenarios (`c0`, `c1`, …). */
async function prepare(scenarios: number): Promise<Cluster> {
  // Two chunk jobs at once per node: the cases count on node A holding exactly two.
  const env = await redisClusterEnv({ POOL_THREADS: '1', CHUNK_CONCURRENCY: '2', SCENARIO_TIMEOUT_MS: '60000' });
  const store = await openRedisStore(env['REDIS_URL']!, { prefix: env['REDIS_PREFIX']! });
  const secrets = {
    pepper: Buffer.from(env['GOV_KEY_PEPPER']!, 'hex'),
    master: Buffer.from(env['GOV_MASTER_KEY']!, 'hex'),
  };
  const keys = new KeyService(store.organizations, secrets, 'gov');
  const org = await keys.createOrg('Crash');
  const key = await keys.createKey(org.org_id, { perMinute: 10_000, perHour: 100_000 });
  for (let i = 0; i < scenarios; i++) await importScenario(store.scenarios, org.org_id, `c${i}`, blueprint(i));
  const connection = new Redis(env['REDIS_URL']!, { maxRetriesPerRequest: null });
  const queue = new Queue(CHUNK_QUEUE, { connection, prefix: bullPrefix(env['REDIS_PREFIX']!) });
  return {
    env,
    store,
    orgId: org.org_id,
    credentials: { apiKey: key.api_key, signingSecret: key.signing_secret },
    queue,
    connection,
    dataDirs: [],
    nodes: [],
  };
}

/** Starts a node process of `cluster` (its own DATA_DIR), with fault injection or without. */
async function startNode(cluster: Cluster, faults: boolean): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gov-cluster-node-'));
  cluster.dataDirs.push(dataDir);
  const node = await startService({
    ...cluster.env,
    DATA_DIR: dataDir,
    GOV_ENABLE_FAULT_INJECTION: faults ? '1' : '0',
  });
  cluster.nodes.push(node);
  return node;
}

/** Kills every node still running, closes the test process's connections and removes the nodes' directories. */
async function teardown(cluster: Cluster | undefined): Promise<void> {
  if (!cluster) return;
  // A node killed by a signal has exitCode null: stopping it again would wait for an exit that already happened.
  const running = cluster.nodes.filter((node) => node.child.exitCode === null && node.child.signalCode === null);
  await Promise.all(running.map((node) => node.stop('SIGKILL')));
  await cluster.queue.close();
  cluster.connection.disconnect(); // BullMQ leaves a connection it was given open
  await cluster.store.close();
  for (const dir of cluster.dataDirs) rmSync(dir, { recursive: true, force: true });
}

/** Submits scenarios `ids` on `client`, every one of them marked to hang on a node with fault injection. */
async function submitHanging(client: GovernanceClient, ids: readonly string[]): Promise<StoredSubmitResult> {
  const res = await client.call<Reply<StoredSubmitResult>>(
    'POST',
    '/evaluate',
    { scenario_ids: ids },
    { headers: { 'x-gov-fault': ids.map((id) => `${id}=hang`).join(',') } },
  );
  return dataOf(res);
}

/** Polls `read` every 50 ms until `done` holds of its value, or fails after `timeoutMs` with `what` and the last value. */
async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what}: not reached after ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await sleep(50);
  }
}

/** The stored records of `ids` (read from Redis directly, as every node reads them). */
async function records(cluster: Cluster, ids: readonly string[]): Promise<EvaluationRecord[]> {
  return Promise.all(
    ids.map(async (id) => {
      const record = await cluster.store.evaluations.get(id);
      assert.ok(record, `evaluation ${id} is stored`);
      return record;
    }),
  );
}

/** Job counts of the chunk queue. */
async function jobCounts(cluster: Cluster): Promise<{ waiting: number; active: number; failed: number }> {
  const c = await cluster.queue.getJobCounts('waiting', 'prioritized', 'active', 'failed');
  return { waiting: (c['waiting'] ?? 0) + (c['prioritized'] ?? 0), active: c['active'] ?? 0, failed: c['failed'] ?? 0 };
}

/**
 * Asserts that every evaluation in `batches` (its scenario ids by evaluation id) completed with one summary
 * per scenario, without errors; that each scenario's latest results come from its batch; that the rollup,
 * read through `client`, counts each scenario once with the sum of their scores; and that no evaluation is open.
 */
async function assertAllCounted(
  cluster: Cluster,
  client: GovernanceClient,
  batches: ReadonlyMap<string, readonly string[]>,
): Promise<void> {
  const all = [...batches.values()].flat();
  const scores: number[] = [];
  for (const record of await records(cluster, [...batches.keys()])) {
    const ids = batches.get(record.evaluation_id)!;
    assert.equal(record.status, 'complete', record.evaluation_id);
    assert.equal(record.completed, ids.length);
    assert.deepEqual(
      record.scenarios.map((s) => (s === null ? null : [s.id, s.error ?? null])),
      ids.map((id) => [id, null]),
      `evaluation ${record.evaluation_id}: one summary per scenario, none failed`,
    );
    for (const id of ids) {
      const results = dataOf(await client.call<Reply<ScenarioResults>>('GET', `/scenarios/${id}/results`));
      assert.equal(results.evaluation_status, 'evaluated', id);
      assert.equal(results.evaluation_id, record.evaluation_id, `${id}: latest results from its batch`);
      assert.equal(typeof results.score, 'number', `${id}: score`);
      scores.push(results.score ?? Number.NaN);
    }
  }
  assert.ok(
    new Set(scores).size > 1,
    `the scenarios' scores differ, so a score counted twice shows (${scores.join(', ')})`,
  );
  const scoreSum = scores.reduce((x, y) => x + y, 0);
  const view = dataOf(await client.call<Reply<Rollup>>('GET', '/organization/rollup'));
  assert.equal(view.scenarios_total, all.length);
  assert.equal(view.scenarios_evaluated, all.length, 'each scenario counted once');
  const rollup = await cluster.store.results.rollup(cluster.orgId);
  assert.ok(rollup, 'the rollup record exists');
  assert.equal(rollup.scenarios_evaluated, all.length);
  assert.equal(rollup.score_sum, scoreSum, "score_sum is the sum of the scenarios' scores");
  const rebuilt = await cluster.store.results.computeRollup(cluster.orgId, new Date().toISOString());
  const { updated_at: _a, ...kept } = rollup;
  const { updated_at: _b, ...fresh } = rebuilt;
  assert.deepEqual(kept, fresh, 'the kept rollup equals the rollup rebuilt from the results');
  assert.deepEqual(
    (await cluster.store.evaluations.listOpen()).map((r) => [r.evaluation_id, r.status]),
    [],
    'no evaluation is left pending or processing',
  );
}

describe('cluster mode: kill -9 of nodes during a batch', () => {
  let cluster: Cluster | undefined;
  after(() => teardown(cluster));

  it('completes the chunks of a node killed while it runs them on the other nodes, counting each scenario once', async () => {
    cluster = await prepare(60);
    const c = cluster;
    // Node A alone takes the first two chunks (CHUNK_CONCURRENCY=2) and hangs on them.
    const victim = await startNode(c, true);
    const onVictim = new GovernanceClient(victim.baseUrl, c.credentials);
    const batches = new Map<string, string[]>();
    for (let b = 0; b < 6; b++) {
      const ids = Array.from({ length: BATCH }, (_, i) => `c${b * BATCH + i}`);
      batches.set((await submitHanging(onVictim, ids)).evaluation_id, ids);
    }
    await waitFor(
      'node A holds two chunks, four wait',
      () => jobCounts(c),
      (n) => n.active === 2 && n.waiting === 4,
    );
    // Nodes B and C (without fault injection) run the four waiting chunks; A's two stay active while it lives.
    const [nodeB, nodeC] = await Promise.all([startNode(c, false), startNode(c, false)]);
    const ids = [...batches.keys()];
    await waitFor(
      'the four chunks not held by A complete',
      () => records(c, ids),
      (rs) => rs.filter((r) => r.status === 'complete').length === 4,
    );
    await sleep(2_500); // longer than twice CHUNK_LOCK_MS: A's locks are renewed, its chunks are not taken from a live node
    const stillHeld = (await records(c, ids)).filter((r) => r.status !== 'complete');
    assert.deepEqual(
      stillHeld.map((r) => [r.status, r.completed]),
      [
        ['processing', 0],
        ['processing', 0],
      ],
      "A's two chunks stay with A while it lives",
    );
    assert.deepEqual(await jobCounts(c), { waiting: 0, active: 2, failed: 0 });
    const killed = await victim.stop('SIGKILL');
    assert.equal(killed.signal, 'SIGKILL');
    await waitFor(
      "A's chunks complete on B and C",
      () => records(c, ids),
      (rs) => rs.every((r) => r.status === 'complete'),
    );
    await waitFor(
      'no chunk job is left',
      () => jobCounts(c),
      (n) => n.waiting + n.active === 0,
      5_000,
    );
    assert.equal((await jobCounts(c)).failed, 0, 'no chunk job failed');
    await assertAllCounted(c, new GovernanceClient(nodeC.baseUrl, c.credentials), batches);
    assert.ok(nodeB.child.exitCode === null && nodeC.child.exitCode === null, 'B and C still run');
  });

  it('completes every evaluation after all nodes were killed mid-batch and started again, leaving none open', async () => {
    const previous = cluster;
    cluster = undefined;
    await teardown(previous);
    cluster = await prepare(30);
    const c = cluster;
    const first = await Promise.all([0, 1, 2].map(() => startNode(c, true)));
    const batches = new Map<string, string[]>();
    for (let b = 0; b < 3; b++) {
      const ids = Array.from({ length: BATCH }, (_, i) => `c${b * BATCH + i}`);
      const on = new GovernanceClient(first[b]!.baseUrl, c.credentials);
      batches.set((await submitHanging(on, ids)).evaluation_id, ids);
    }
    const ids = [...batches.keys()];
    await waitFor(
      'every chunk is taken',
      () => jobCounts(c),
      (n) => n.active === 3 && n.waiting === 0,
    );
    await waitFor(
      'every evaluation is processing',
      () => records(c, ids),
      (rs) => rs.every((r) => r.status === 'processing'),
    );
    for (const node of first) assert.equal((await node.stop('SIGKILL')).signal, 'SIGKILL');
    assert.deepEqual(
      (await c.store.evaluations.listOpen()).map((r) => r.evaluation_id).sort(),
      [...ids].sort(),
      'the three evaluations are open after the crash',
    );
    // The same environment again, without fault injection: the restarted nodes evaluate the chunks.
    const second = await Promise.all([0, 1, 2].map(() => startNode(c, false)));
    await waitFor(
      'every evaluation completes after the restart',
      () => records(c, ids),
      (rs) => rs.every((r) => r.status === 'complete'),
    );
    await waitFor(
      'no chunk job is left',
      () => jobCounts(c),
      (n) => n.waiting + n.active === 0,
      5_000,
    );
    assert.equal((await jobCounts(c)).failed, 0, 'no chunk job failed');
    await assertAllCounted(c, new GovernanceClient(second[0]!.baseUrl, c.credentials), batches);
  });
});
