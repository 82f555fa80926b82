/**
 * Cluster mode: `POST /evaluate` while Redis restarts under load (issue 31, item 7). A 503 means
 * that nothing was written: the evaluation record and its chunk jobs are stored together, so the
 * evaluations that exist afterwards are exactly the ones answered 200, and each one completes.
 *
 * Redis is restarted three times while requests keep coming, each time at the worst moment: as
 * soon as the test sees, in Redis, an open evaluation whose first chunk job does not exist (a record
 * stored without its jobs), or after LOAD_MS when it never sees one. A restart: writes are paused
 * (`CLIENT PAUSE … WRITE`: a write that arrives waits unexecuted), so that every write Redis ran is
 * answered before the process is killed (SIGKILL); Redis stays down DOWN_MS, longer than the
 * service's connections wait before failing a command, and starts again on its AOF (`appendfsync
 * always`: what was answered is on disk). Without the pause a kill can also cut the answer to a
 * transaction that Redis ran: docs/architecture.md, "Cluster mode", says what a 503 means then.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { importScenario } from '../../src/actors/scenarios.js';
import { bullPrefix, CHUNK_QUEUE } from '../../src/actors/cluster/chunk-queue.js';
import type { EvaluationReply, EvaluationStatus, Reply, StoredSubmitResult } from '../../src/client/responses.js';
import { RedisKeys } from '../../src/store/redis/keys.js';
import { bp, m } from '../helpers/blueprints.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Scenarios `r0` … `r29`; a batch is three of them chosen by the request number, so no two bodies are equal (replay guard). */
const SCENARIOS = 30;
/** Requests in flight at once. */
const CONCURRENCY = 8;
/** Restarts of Redis during the load. */
const RESTARTS = 3;
/** How long Redis stays down: longer than the service's clients wait for a reconnect before failing a command. */
const DOWN_MS = 500;
/** Load before each kill when no evaluation without jobs shows up. */
const LOAD_MS = 600;
const PREFIX = 'it-restart:';

/**
 * The id of an open evaluation whose first chunk job does not exist, or nil. KEYS[1]: the open index
 * (`Popen`, evaluation id → status and organization). ARGV[1]: the chunk queue's job key prefix. A
 * batch of three scenarios is one chunk job, `<evaluation id>-0`; it is removed only once completed,
 * after the commit that made its evaluation terminal took it out of the open index.
 */
const WITHOUT_JOBS = `for _, id in ipairs(redis.call('HKEYS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. id .. '-0') == 0 then return id end
end
return false`;

describe('cluster mode: POST /evaluate while Redis restarts', () => {
  let redis: RedisServer;
  let t: TestServer;
  let admin: Redis;
  const keys = new RedisKeys(PREFIX);

  before(async () => {
    redis = await startRedisServer({ args: ['--appendfsync', 'always'] });
    t = await startTestServer({
      env: {
        STORE: 'redis',
        REDIS_URL: redis.url,
        REDIS_PREFIX: PREFIX,
        GOV_KEY_PEPPER: 'e5'.repeat(32),
        GOV_MASTER_KEY: 'f6'.repeat(32),
        CHUNK_LOCK_MS: '1000',
        POOL_THREADS: '2',
      },
    });
    for (let i = 0; i < SCENARIOS; i++)
      await importScenario(
        t.server.store.scenarios,
        t.orgId,
        `r${i}`,
        JSON.stringify(bp([m(1, 'util:SetVariable2', { mapper: { name: `v${i}`, value: 'x' } })])),
      );
    admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    admin.on('error', () => undefined); // it reconnects after each restart
  });
  after(async () => {
    admin.disconnect();
    await t.close();
    await redis.stop();
  });

  const readyz = async (): Promise<number> => (await fetch(`http://127.0.0.1:${t.server.opsPort}/readyz`)).status;

  /** Resolves after LOAD_MS, or as soon as Redis holds an open evaluation without its chunk job. @returns whether it saw one. */
  async function worstMoment(): Promise<boolean> {
    const deadline = performance.now() + LOAD_MS;
    const jobKeyPrefix = `${bullPrefix(PREFIX)}:${CHUNK_QUEUE}:`;
    while (performance.now() < deadline) {
      if ((await admin.eval(WITHOUT_JOBS, 1, keys.open, jobKeyPrefix)) !== null) return true;
      await sleep(1);
    }
    return false;
  }

  /**
   * At the worst moment, stops Redis from running writes (`CLIENT PAUSE … WRITE`: a write that
   * arrives waits unexecuted), lets the answers of the writes it ran reach the service, kills it,
   * keeps it down DOWN_MS, starts it again and waits for /readyz.
   */
  async function restartRedis(): Promise<void> {
    await worstMoment();
    await admin.call('CLIENT', 'PAUSE', '10000', 'WRITE');
    await sleep(50);
    await redis.kill();
    await sleep(DOWN_MS);
    await redis.restart();
    for (let i = 0; i < 200 && (await readyz()) !== 200; i++) await sleep(50);
  }

  it('stores exactly the evaluations it acknowledged, and completes each', async () => {
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    let loading = true;
    const load = async (): Promise<void> => {
      while (loading) {
        const n = next++;
        const ids = [n % SCENARIOS, Math.floor(n / SCENARIOS) % SCENARIOS, Math.floor(n / 900) % SCENARIOS];
        const res = await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', {
          scenario_ids: ids.map((i) => `r${i}`),
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.body.ok) acknowledged.push(res.body.data.evaluation_id);
        if (res.status === 503) await sleep(20); // not Retry-After's 2 s: Redis is down for less
      }
    };
    const loops = Array.from({ length: CONCURRENCY }, load);
    for (let r = 0; r < RESTARTS; r++) await restartRedis();
    await sleep(LOAD_MS);
    loading = false;
    await Promise.all(loops);

    const counts = JSON.stringify([...statuses]);
    assert.deepEqual([...statuses.keys()].sort(), [200, 503], `only 200 and 503 answers: ${counts}`);

    // Every evaluation stored for the organization (`Pev-org`: evaluation id → organization).
    const owners = await admin.hgetall(keys.evaluationOrgs);
    const created = new Set(Object.keys(owners).filter((id) => owners[id] === t.orgId));
    const answered = new Set(acknowledged);
    const unacknowledged = [...created].filter((id) => !answered.has(id));
    const lost = acknowledged.filter((id) => !created.has(id));
    assert.deepEqual(
      { unacknowledged, lost },
      { unacknowledged: [], lost: [] },
      `stored ${created.size}, answered 200 ${acknowledged.length} (${counts})`,
    );

    // Each completes (none waits without chunk jobs until its time budget closes it as an error).
    for (const id of acknowledged) {
      let status: EvaluationStatus | undefined;
      for (let i = 0; i < 600; i++) {
        const res = await t.client.call<EvaluationReply>('GET', `/evaluations/${id}`);
        status = res.body.ok ? res.body.data : undefined;
        if (status?.status === 'complete' || status?.status === 'error') break;
        await sleep(50);
      }
      assert.equal(status?.status, 'complete', `evaluation ${id}: ${JSON.stringify(status)}`);
      assert.equal(status.completed, 3, id);
    }
  });
});
