/**
 * Cluster mode while Redis is down (issue 16 "Redis outages"): a real server on its own real
 * redis-server, which the test kills (SIGKILL) for 10 s under a steady load of reads and writes and
 * then starts again on the same AOF. While it is down every request that needs it gets 503
 * `Service temporarily unavailable` with `Retry-After`, never a 500 and never a hang; /readyz fails
 * and /metrics still answers with `gov_redis_up 0`. Once it is back everything recovers by itself:
 * the evaluation acknowledged before the outage completes, /readyz passes, requests succeed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { importScenario } from '../../src/actors/scenarios.js';
import { pollEvaluation } from '../../src/client/client.js';
import type { EvaluationReply, Reply, StoredSubmitResult } from '../../src/client/responses.js';
import { dataOf } from '../helpers/assertions.js';
import { bp, m } from '../helpers/blueprints.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const OUTAGE_MS = 10_000;

describe('cluster mode while Redis is down', () => {
  let redis: RedisServer;
  let t: TestServer;
  const ids = Array.from({ length: 30 }, (_, i) => `s${i}`);
  before(async () => {
    // `always`: the submission acknowledged just before the SIGKILL must be in the AOF (with
    // `everysec` a crash may lose up to ~2 s of acknowledged writes, PITFALLS 30).
    redis = await startRedisServer({ args: ['--appendfsync', 'always'] });
    t = await startTestServer({
      env: {
        STORE: 'redis',
        REDIS_URL: redis.url,
        GOV_KEY_PEPPER: 'c3'.repeat(32),
        GOV_MASTER_KEY: 'd4'.repeat(32),
        CHUNK_LOCK_MS: '1000',
        POOL_THREADS: '2',
      },
    });
    for (const id of ids)
      await importScenario(
        t.server.store.scenarios,
        t.orgId,
        id,
        JSON.stringify(
          bp([
            m(1, 'gateway:CustomWebHook'),
            m(2, 'http:ActionSendData', { mapper: { url: `https://example.com/${id}` } }),
          ]),
        ),
      );
  });
  after(async () => {
    await t.close();
    await redis.stop();
  });

  const metrics = async (): Promise<string> => (await fetch(`http://127.0.0.1:${t.server.opsPort}/metrics`)).text();
  const readyz = async (): Promise<number> => (await fetch(`http://127.0.0.1:${t.server.opsPort}/readyz`)).status;

  it('reports Redis and its commands in /metrics while it is up', async () => {
    const submit = dataOf(
      await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ids.slice(0, 10) }),
    );
    await pollEvaluation<EvaluationReply>(t.client, submit.evaluation_id, { delaysMs: [50], timeoutMs: 30_000 });
    const text = await metrics();
    assert.match(text, /^gov_redis_up 1$/m);
    assert.match(text, /^gov_redis_command_seconds_count\{command="ping"\} [1-9]/m, 'the round trip is probed');
    assert.match(text, /^gov_chunk_queue_jobs\{state="waiting"\} \d+$/m);
    assert.equal(await readyz(), 200);
  });

  it('answers 503 with Retry-After while Redis is down, never 500, and recovers by itself', async () => {
    const batch = ids.slice(10, 20); // at most 10 per batch (spec §8)
    const submit = dataOf(await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: batch }));
    await redis.kill();
    const statuses = new Map<number, number>();
    let missingRetryAfter = 0;
    let n = 0;
    const until = performance.now() + OUTAGE_MS;
    while (performance.now() < until) {
      // A write and a read every 100 ms; each answered (no hang: the client would time out the test).
      const answers = await Promise.all([
        t.client.call('POST', '/evaluate', { scenario_ids: [ids[n++ % ids.length]!] }),
        t.client.call('GET', `/evaluations/${submit.evaluation_id}`),
      ]);
      for (const a of answers) {
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        if (a.status === 503 && !a.headers['retry-after']) missingRetryAfter++;
        if (a.status === 503) assert.equal((a.body as { error?: string }).error, 'Service temporarily unavailable');
      }
      await sleep(100);
    }
    assert.equal(statuses.get(500), undefined, `no 500 during the outage: ${JSON.stringify([...statuses])}`);
    assert.ok((statuses.get(503) ?? 0) > 20, `503s during the outage: ${JSON.stringify([...statuses])}`);
    assert.equal(missingRetryAfter, 0, 'every 503 carries Retry-After');
    assert.equal(await readyz(), 503, '/readyz fails while Redis is down');
    assert.match(await metrics(), /^gov_redis_up 0$/m, '/metrics answers, with Redis down');

    await redis.restart();
    // The client reconnects with a backoff of at most 2 s; /readyz tells when it is back.
    let ready = 0;
    for (let i = 0; i < 100 && ready !== 200; i++) {
      ready = await readyz();
      if (ready !== 200) await sleep(100);
    }
    assert.equal(ready, 200, '/readyz passes again within 10 s');
    const last = await pollEvaluation<EvaluationReply>(t.client, submit.evaluation_id, {
      delaysMs: [200, 500],
      timeoutMs: 60_000,
    });
    const status = dataOf(last);
    assert.equal(status.status, 'complete', 'the evaluation acknowledged before the outage completes');
    assert.equal(status.completed, batch.length);
    assert.equal((await t.client.call('GET', `/evaluations/${submit.evaluation_id}`)).status, 200);
  });
});
