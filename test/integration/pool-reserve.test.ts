/**
 * The evaluation pool keeps its last free worker for inline requests while they arrive (issue 20,
 * item 5), on the real piscina pool with two worker threads: a second chunk waits for the first
 * instead of taking the last free worker, an inline task takes that worker at once, and once the
 * reservation has lapsed chunks use every worker again.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { EvaluationPool, type PoolOptions } from '../../src/actors/pool.js';
import type { ChunkScenario, InlineTaskResult } from '../../src/actors/worker-protocol.js';
import { DEFAULT_GOVERNANCE } from '../../src/actors/worker-protocol.js';
import { bp, m } from '../helpers/blueprints.js';

/** The one organization these tasks belong to (the pool's order between organizations: pool-fairness.test). */
const ORG = 'org-a';

/** A blueprint of 150 HTTP modules: a chunk of 30 of them keeps a worker busy for a good while. */
const HEAVY = JSON.stringify(
  bp(
    Array.from({ length: 150 }, (_, i) =>
      m(i + 1, 'http:ActionSendData', { mapper: { url: `https://example.com/${i}` } }),
    ),
  ),
);
const SMALL = JSON.stringify({ blueprint: bp([m(1, 'json:ParseJSON', { mapper: { json: '{}' } })]) });

const options = (interactiveReserveMs: number): PoolOptions => ({
  threads: 2,
  maxQueue: 1000,
  taskTimeoutMs: 30_000,
  maxOldGenerationMb: 128,
  maxYoungGenerationMb: 24,
  interactiveReserveMs,
});

const inline = async (pool: EvaluationPool): Promise<number> => {
  const r = (await pool.runInline(ORG, {
    kind: 'inline',
    body: new Uint8Array(Buffer.from(SMALL)),
    governance: DEFAULT_GOVERNANCE,
  })) as InlineTaskResult | { ok: false };
  assert.ok(r.ok, 'the inline task succeeded');
  return r.stats.startedAtMs;
};

/** Runs a chunk of `n` heavy scenarios; resolves with the start time of each (epoch ms, by index). */
const chunk = async (pool: EvaluationPool, id: string, n: number): Promise<number[]> => {
  const starts: number[] = [];
  const scenarios: ChunkScenario[] = Array.from({ length: n }, (_, index) => ({
    index,
    scenarioId: `${id}-${index}`,
    blueprint: new Uint8Array(Buffer.from(HEAVY)),
  }));
  const outcome = await pool.runChunk(ORG, id, new Date().toISOString(), DEFAULT_GOVERNANCE, scenarios, (i, r) => {
    assert.ok(r.ok, "the chunk's scenario succeeded");
    starts[i] = r.stats.startedAtMs;
  });
  assert.equal(outcome.failure, null);
  return starts;
};

it('keeps the last free worker for inline tasks: a second chunk waits, an inline task starts at once', async () => {
  const pool = new EvaluationPool(options(600_000));
  try {
    await inline(pool); // workers up; an interactive task was just seen
    const first = chunk(pool, 'a', 30);
    const second = chunk(pool, 'b', 1);
    assert.equal(pool.queueSize, 1, 'the second chunk waits although a worker is free');
    const during = inline(pool);
    assert.equal(pool.queueSize, 1, 'the inline task took the free worker at once; only the chunk waits');
    const [a, b] = await Promise.all([first, second, during]);
    assert.ok(b[0]! > a[a.length - 1]!, 'the second chunk started only after the first one ended');
  } finally {
    await pool.close();
  }
});

/** Submits two chunks and asserts both went to a worker at once (none queued); resolves when both ran. */
async function bothChunksAtOnce(pool: EvaluationPool): Promise<void> {
  const both = Promise.all([chunk(pool, 'a', 30), chunk(pool, 'b', 1)]);
  assert.equal(pool.queueSize, 0, 'both chunks went to a worker at once');
  await both;
}

it('lets chunks take every worker once no inline task came within the reservation', async () => {
  const pool = new EvaluationPool(options(1));
  try {
    await Promise.all([inline(pool), inline(pool)]); // both workers up
    await new Promise((r) => setTimeout(r, 50)); // the 1 ms reservation has lapsed
    await bothChunksAtOnce(pool);
  } finally {
    await pool.close();
  }
});

it('keeps nothing with the reservation off (the default)', async () => {
  const { interactiveReserveMs: _off, ...defaults } = options(0);
  const pool = new EvaluationPool(defaults);
  try {
    await Promise.all([inline(pool), inline(pool)]); // both workers up
    await bothChunksAtOnce(pool);
  } finally {
    await pool.close();
  }
});

it('dispatches a held chunk when the reservation lapses, with no other traffic', async () => {
  const pool = new EvaluationPool(options(200));
  try {
    await inline(pool);
    // Both chunks are submitted within the reservation: the second waits for the first or for the
    // reservation's end, whichever comes first; either way it completes with nothing else arriving.
    const [a, b] = await Promise.all([chunk(pool, 'a', 2), chunk(pool, 'b', 1)]);
    assert.equal(a.length, 2);
    assert.equal(b.length, 1);
  } finally {
    await pool.close();
  }
});
