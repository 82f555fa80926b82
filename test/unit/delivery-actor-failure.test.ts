/**
 * A webhook delivery actor whose drain fails outside the send (issue 15: no fire-and-forget promise
 * without a handler): the failure is reported, the process stays up, and the actor tries again.
 * Real LMDB store in a temporary directory, closed under the actor so that its reads throw.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.js';
import { DeliveryActor } from '../../src/actors/webhooks/delivery-actor.js';

it('reports a drain that throws and schedules another try instead of ending the process', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gov-delivery-'));
  const store = openStore(dir);
  const failures: unknown[] = [];
  const sent: string[] = [];
  const options = { maxAttempts: 3, backoffBaseMs: 20, backoffMaxMs: 100, timeoutMs: 1000, allowPrivate: true };
  const actor = new DeliveryActor(
    store.webhooks,
    'org_1',
    'wh_1',
    'secret',
    (url) => {
      sent.push(url);
      return Promise.resolve({ statusCode: 200, error: null, durationMs: 1, retryAfterMs: null, blocked: false });
    },
    options,
    () => Date.now(),
    () => undefined,
    (error) => failures.push(error),
  );
  try {
    await store.close(); // every read of the actor now throws
    actor.tell({ type: 'wake' });
    await new Promise((r) => setTimeout(r, 70)); // the first try and at least one retry after backoffBaseMs
    assert.ok(failures.length >= 2, `expected the failure reported and retried, got ${failures.length}`);
    assert.ok(failures.every((e) => e instanceof Error));
    assert.deepEqual(sent, []);
  } finally {
    actor.tell({ type: 'stop' });
    rmSync(dir, { recursive: true, force: true });
  }
});
