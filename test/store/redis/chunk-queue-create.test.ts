/**
 * Cluster mode's creation of an evaluation (actors/cluster/chunk-queue `create`, issue 31, item 7) on
 * a real redis-server: the record and its chunk jobs are stored by one transaction; when Redis
 * refuses it (here `maxmemory` reached), neither exists and the error is the one that answers 503.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { bullPrefix, CHUNK_QUEUE, ChunkQueue } from '../../../src/actors/cluster/chunk-queue.js';
import type { ChunkJobData } from '../../../src/actors/cluster/chunk-jobs.js';
import { openRedisStore, type RedisStore } from '../../../src/store/redis/store.js';
import { isRedisUnavailableError } from '../../../src/store/redis/unavailable.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { evaluationRecord, ORG } from '../contract/fixtures.js';

const PREFIX = 'cq:';
const inputs = (ids: readonly string[]) => ids.map((scenarioId) => ({ scenarioId, blueprint: Buffer.from('{}') }));

describe('ChunkQueue.create', () => {
  let server: RedisServer;
  let store: RedisStore;
  let chunks: ChunkQueue;
  let admin: Redis;
  let reader: Queue<ChunkJobData>;

  before(async () => {
    server = await startRedisServer();
    store = await openRedisStore(server.url, { prefix: PREFIX });
    chunks = new ChunkQueue(server.url, PREFIX, store.evaluations, 120_000);
    admin = new Redis(server.url);
    reader = new Queue<ChunkJobData>(CHUNK_QUEUE, { connection: admin, prefix: bullPrefix(PREFIX) });
  });
  after(async () => {
    await reader.close();
    admin.disconnect();
    await chunks.close();
    await store.close();
    await server.stop();
  });

  it('stores the record and one job per chunk of 10 scenarios', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `s${i}`);
    const record = evaluationRecord('ev_both', ORG, ids);
    await chunks.create(record, inputs(ids));
    assert.deepEqual(await store.evaluations.get('ev_both'), record);
    const jobs = await Promise.all([reader.getJob('ev_both-0'), reader.getJob('ev_both-1')]);
    assert.deepEqual(
      jobs.map((j) => j?.data.scenarios.map((s) => s.scenarioId)),
      [ids.slice(0, 10), ids.slice(10)],
    );
    assert.equal(jobs[0]?.opts.attempts, 8);
  });

  it("orders jobs fairly between organizations: a job's priority is its place in its organization's backlog", async () => {
    const other = `${ORG}-other`;
    const batch = async (org: string, id: string, n = 10) => {
      const ids = Array.from({ length: n }, (_, i) => `${id}-s${i}`);
      await chunks.create(evaluationRecord(id, org, ids), inputs(ids));
    };
    const priorities = async (...jobIds: string[]) =>
      (await Promise.all(jobIds.map((j) => reader.getJob(j)))).map((j) => j?.opts.priority);
    // The organization's backlog holds its jobs not started yet (those of earlier cases included).
    const before = await store.evaluations.chunkBacklog(ORG, 0);
    await batch(ORG, 'ev_fa1', 20); // two chunks
    await batch(ORG, 'ev_fa2');
    await batch(other, 'ev_fb1');
    assert.deepEqual(await priorities('ev_fa1-0', 'ev_fa1-1', 'ev_fa2-0'), [before + 1, before + 2, before + 3]);
    assert.deepEqual(await priorities('ev_fb1-0'), [1], "a newcomer's first job goes first among equals");
    // Started jobs leave the backlog: the next job of the organization takes the freed place.
    for (const j of ['ev_fa1-0', 'ev_fa1-1']) await store.evaluations.chunkStarted(ORG, j);
    assert.equal(await store.evaluations.chunkBacklog(ORG, 0), before + 1);
    await batch(ORG, 'ev_fa3');
    assert.deepEqual(await priorities('ev_fa3-0'), [before + 2]);
    // Entries older than the window are dropped (a job never started: its evaluation's budget closed it).
    assert.equal(await store.evaluations.chunkBacklog(ORG, Date.now() + 60_000), 0);
  });

  it('stores neither when Redis refuses the transaction, and fails as unavailable (503)', async () => {
    await admin.config('SET', 'maxmemory', '1');
    try {
      const record = evaluationRecord('ev_none', ORG, ['s1']);
      const error = await chunks.create(record, inputs(['s1'])).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof Error, 'refused');
      assert.match(error.message, /^OOM /);
      assert.ok(isRedisUnavailableError(error));
    } finally {
      await admin.config('SET', 'maxmemory', '0');
    }
    assert.equal(await store.evaluations.get('ev_none'), undefined);
    assert.equal(await reader.getJob('ev_none-0'), undefined);
  });
});
