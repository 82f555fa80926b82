/**
 * The evaluation pool's dispatch order, on the real piscina pool with one worker thread: tasks start
 * in submission order within a lane (piscina's own queue reordered tasks that carry an abort
 * signal), interactive tasks go before bulk chunks but never more than INTERACTIVE_STREAK in a row,
 * and closing waits for queued tasks.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { EvaluationPool } from '../../src/actors/pool.js';
import { INTERACTIVE_STREAK } from '../../src/actors/lanes.js';
import type { InlineTaskResult } from '../../src/actors/worker-protocol.js';
import { DEFAULT_GOVERNANCE } from '../../src/actors/worker-protocol.js';

/** The one organization these tasks belong to (the pool's order between organizations: pool-fairness.test). */
const ORG = 'org-a';

const BLUEPRINT = {
  name: 'Order',
  flow: [{ id: 1, module: 'json:ParseJSON', version: 1, mapper: { json: '{}' } }],
  metadata: { scenario: { roundtrips: 1 } },
};
const inlineBody = (): Uint8Array => new Uint8Array(Buffer.from(JSON.stringify({ blueprint: BLUEPRINT })));
const startedAt = (r: InlineTaskResult | { ok: false }): number => {
  assert.ok(r.ok, 'the task succeeded');
  return r.stats.startedAtMs;
};

let pool: EvaluationPool;
before(() => {
  pool = new EvaluationPool({
    threads: 1,
    maxQueue: 1000,
    taskTimeoutMs: 30_000,
    maxOldGenerationMb: 128,
    maxYoungGenerationMb: 24,
  });
});
after(async () => {
  await pool.close();
});

it('starts tasks of one lane in the order they were submitted', async () => {
  await pool.runInline(ORG, { kind: 'inline', body: inlineBody(), governance: DEFAULT_GOVERNANCE }); // worker up and warm
  const results = await Promise.all(
    Array.from({ length: 40 }, () =>
      pool.runInline(ORG, { kind: 'inline', body: inlineBody(), governance: DEFAULT_GOVERNANCE }),
    ),
  );
  const starts = results.map(startedAt);
  for (let i = 1; i < starts.length; i++)
    assert.ok(starts[i]! >= starts[i - 1]!, `task ${i} started before task ${i - 1}`);
});

it('puts interactive tasks ahead of waiting chunks, but lets a chunk through after a streak', async () => {
  // Order of starts on the one worker (completions can interleave differently: a chunk's outcomes
  // and its task's answer travel on different ports).
  const starts: { label: string; at: number }[] = [];
  const blueprint = new Uint8Array(Buffer.from(JSON.stringify(BLUEPRINT)));
  const blocker = pool.runInline(ORG, { kind: 'inline', body: inlineBody(), governance: DEFAULT_GOVERNANCE }); // occupies the one worker
  const chunks = Array.from({ length: 2 }, (_, c) =>
    pool.runChunk(
      ORG,
      `e${c}`,
      new Date().toISOString(),
      DEFAULT_GOVERNANCE,
      [{ index: 0, scenarioId: `s${c}`, blueprint }],
      (_i, result) => {
        assert.ok(result.ok, "the chunk's scenario succeeded");
        starts.push({ label: `bulk${c}`, at: result.stats.startedAtMs });
      },
    ),
  );
  const inline = Array.from({ length: INTERACTIVE_STREAK + 2 }, (_, i) =>
    pool
      .runInline(ORG, { kind: 'inline', body: inlineBody(), governance: DEFAULT_GOVERNANCE })
      .then((r) => starts.push({ label: `inline${i}`, at: startedAt(r) })),
  );
  await Promise.all([blocker, ...chunks, ...inline]);
  const order = starts.sort((a, b) => a.at - b.at).map((s) => s.label);
  const streak = Array.from({ length: INTERACTIVE_STREAK }, (_, i) => `inline${i}`);
  assert.deepEqual(order, [
    ...streak,
    'bulk0',
    `inline${INTERACTIVE_STREAK}`,
    `inline${INTERACTIVE_STREAK + 1}`,
    'bulk1',
  ]);
});

it('finishes queued tasks before a graceful close returns', async () => {
  const own = new EvaluationPool({
    threads: 1,
    maxQueue: 100,
    taskTimeoutMs: 30_000,
    maxOldGenerationMb: 128,
    maxYoungGenerationMb: 24,
  });
  const tasks = Array.from({ length: 6 }, () =>
    own.runInline(ORG, { kind: 'inline', body: inlineBody(), governance: DEFAULT_GOVERNANCE }),
  );
  await own.close();
  for (const r of await Promise.all(tasks)) assert.equal(r.ok, true);
});

it('fails queued tasks on a forced close without starting a worker for them', async () => {
  const own = new EvaluationPool({
    threads: 1,
    maxQueue: 100,
    taskTimeoutMs: 30_000,
    maxOldGenerationMb: 128,
    maxYoungGenerationMb: 24,
  });
  const tasks = Array.from({ length: 6 }, () =>
    own.runInline(ORG, { kind: 'inline', body: inlineBody(), governance: DEFAULT_GOVERNANCE }),
  );
  await own.close(true);
  const results = await Promise.all(tasks);
  assert.ok(
    results.every((r) => !r.ok),
    'no task completes once the pool is destroyed',
  );
  assert.equal(own.threadCount, 0, 'no worker was started after the close');
  assert.equal(
    (await own.runInline(ORG, { kind: 'inline', body: inlineBody(), governance: DEFAULT_GOVERNANCE })).ok,
    false,
    'a task after the close fails at once',
  );
  assert.equal(own.threadCount, 0);
});
