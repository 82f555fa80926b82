/**
 * Memory bounds of the evaluation workers (issue 13, "Also seen": RSS grew across fuzz runs while the
 * main heap stayed flat). The server's workers run with the configured V8 caps, the young generation
 * below V8's default of 48 MiB, and an idle worker's event loop is free between tasks, so V8's memory
 * reducer can shrink its heap after a burst (with piscina's default blocking wait it never ran).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/server/config.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bp, m } from '../helpers/blueprints.js';

/** V8's young-generation cap for a worker given none, in MiB (two 16 MiB semi-spaces and 16 for young large objects). */
const V8_DEFAULT_YOUNG_MB = 48;

let t: TestServer;
before(async () => {
  t = await startTestServer();
  const res = await t.client.call('POST', '/evaluate/inline', { blueprint: bp([m(1, 'util:SetVariable2')]) });
  assert.equal(res.status, 200, res.raw);
});
after(async () => {
  await t.close();
});

it("runs its workers with the configured heap caps, the young generation below V8's default", () => {
  const defaults = loadConfig({});
  assert.ok(
    defaults.workerMaxYoungMb < V8_DEFAULT_YOUNG_MB,
    `default WORKER_MAX_YOUNG_MB ${defaults.workerMaxYoungMb}`,
  );
  const workers = t.server.pool.workers;
  assert.ok(workers.length > 0, 'a worker is running');
  for (const w of workers) {
    // As Node applied them to the worker's isolate: without the option it reports V8's 48.
    assert.equal(w.resourceLimits?.maxYoungGenerationSizeMb, defaults.workerMaxYoungMb);
    assert.equal(w.resourceLimits?.maxOldGenerationSizeMb, defaults.workerMaxOldMb);
  }
});

it("leaves an idle worker's event loop free between tasks, so V8 can shrink its heap", async () => {
  const [worker] = t.server.pool.workers;
  assert.ok(worker, 'a worker is running');
  const start = worker.performance.eventLoopUtilization();
  await sleep(300);
  // Blocked in piscina's Atomics.wait, an idle worker's loop counts as busy the whole time (1.0).
  const { utilization } = worker.performance.eventLoopUtilization(start);
  assert.ok(utilization < 0.5, `idle worker event-loop utilisation ${utilization.toFixed(3)}`);
});
