/** Key use written behind (issue 18, "last used"): batched, latest time per key, retried after a failure, memory bounded by the keys in use. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { KeyUse } from '../../src/store/organizations/repository.js';
import { KeyUsage } from '../../src/server/auth/key-usage.js';

/** A store that records every batch it is given and fails while `failing` is set. */
function fakeStore() {
  const batches: KeyUse[][] = [];
  const state = { failing: false };
  return {
    batches,
    state,
    recordKeyUse(entries: readonly KeyUse[]): Promise<void> {
      if (state.failing) return Promise.reject(new Error('store down'));
      batches.push([...entries]);
      return Promise.resolve();
    },
  };
}

const T = 1_800_000_000_000;

it('writes the latest use of each key in one batch, then only keys used since their last write', async () => {
  const store = fakeStore();
  const usage = new KeyUsage(store, 60_000);
  usage.mark('key_a', T + 5);
  usage.mark('key_b', T + 1);
  usage.mark('key_a', T + 3); // out of order (a slower request): the later time stays
  usage.mark('key_a', T + 9);
  await usage.flush();
  assert.deepEqual(store.batches, [
    [
      { keyId: 'key_a', atMs: T + 9 },
      { keyId: 'key_b', atMs: T + 1 },
    ],
  ]);
  usage.mark('key_b', T + 20);
  usage.mark('key_a', T + 9); // no newer use of key_a
  await usage.flush();
  assert.deepEqual(store.batches[1], [{ keyId: 'key_b', atMs: T + 20 }]);
  await usage.flush();
  assert.equal(store.batches.length, 2, 'nothing is written when no key was used');
  assert.equal(usage.size, 0, 'keys idle for a whole interval are forgotten');
  usage.mark('key_a', T + 30);
  await usage.flush();
  assert.deepEqual(
    store.batches[2],
    [{ keyId: 'key_a', atMs: T + 30 }],
    'a forgotten key is written again on its next use',
  );
});

it('reports a failed write and writes the same use with the next flush', async () => {
  const store = fakeStore();
  const failures: unknown[] = [];
  const usage = new KeyUsage(store, 60_000, (e) => failures.push(e));
  usage.mark('key_a', T);
  store.state.failing = true;
  await usage.flush(); // never rejects
  assert.equal(failures.length, 1);
  assert.equal(store.batches.length, 0);
  store.state.failing = false;
  usage.mark('key_a', T - 1);
  await usage.flush();
  assert.deepEqual(store.batches, [[{ keyId: 'key_a', atMs: T }]]);
});

it('runs flushes one at a time, so concurrent flushes never write a batch twice', async () => {
  const store = fakeStore();
  const usage = new KeyUsage(store, 60_000);
  usage.mark('key_a', T);
  await Promise.all([usage.flush(), usage.flush(), usage.flush()]);
  assert.deepEqual(store.batches, [[{ keyId: 'key_a', atMs: T }]]);
});

it('flushes on its interval once started, and stop() flushes what is left', async () => {
  const store = fakeStore();
  const usage = new KeyUsage(store, 10);
  usage.start();
  usage.start(); // idempotent
  usage.mark('key_a', T);
  while (store.batches.length === 0) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(store.batches, [[{ keyId: 'key_a', atMs: T }]]);
  usage.mark('key_b', T + 1);
  await usage.stop();
  assert.deepEqual(store.batches.at(-1), [{ keyId: 'key_b', atMs: T + 1 }], 'stop() writes the rest at once');
});
