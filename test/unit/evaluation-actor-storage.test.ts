/**
 * A failed write transaction of an evaluation (issue 15: "every fire-and-forget promise has a
 * handler ... a test makes an LMDB write fail and shows the evaluation ends as `error`"). Real LMDB
 * store in a temporary directory; the transaction fails because a callback inside it (the outbox's
 * deliveries) throws (lmdb-js aborts the transaction and rejects its promise), the pool is a stand-in that
 * reports one failed scenario at once. Before the fix the rejection was unhandled and ended the process.
 */
import { afterEach, beforeEach, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../../src/store/store.js';
import { openStore } from '../../src/store/open.js';
import type { EvaluationRecord } from '../../src/model/records.js';
import { EvaluationActor, STORAGE_FAILED_MESSAGE, type EvaluationObserver } from '../../src/actors/evaluation-actor.js';
import type { EvaluationPool } from '../../src/actors/pool.js';
import { GovernanceContexts } from '../../src/actors/governance.js';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actor-storage-'));
  store = openStore(dir);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const T0 = Date.parse('2026-11-23T10:00:00Z');
const record: EvaluationRecord = {
  evaluation_id: 'ev_storage',
  org_id: 'org_1',
  kind: 'stored',
  status: 'pending',
  scenario_ids: ['s1'],
  versions: [0],
  total_scenarios: 1,
  completed: 0,
  scenarios: [null],
  error: null,
  created_at: new Date(T0).toISOString(),
  updated_at: new Date(T0).toISOString(),
  completed_at: null,
  expires_at: T0 + 3_600_000,
  key_id: 'key_1',
};
/** Reports the one scenario as failed by its worker (spec §3 rule 1: the evaluation still completes). */
const pool = {
  runChunk: () => Promise.resolve({ unreported: [0], failure: { ok: false, code: 'worker_error', message: 'boom' } }),
} as unknown as EvaluationPool;

/**
 * Runs the actor over the real store. The first terminal write fails inside its transaction (the
 * outbox throws); with `errorRecordFails`, the commit of the error record that follows is refused too
 * (the error record writes no outbox, so a stand-in repository refuses it, as a full map would).
 */
async function run(errorRecordFails: boolean): Promise<{ calls: [string, boolean][] }> {
  await store.evaluations.create(record);
  const real = store.evaluations;
  const evaluations = new Proxy(real, {
    get(target, name, receiver) {
      if (name !== 'commit') return Reflect.get(target, name, receiver) as unknown;
      return (write: Parameters<typeof real.commit>[0]) =>
        errorRecordFails && write.record.status === 'error'
          ? Promise.reject(new Error('error record write failed'))
          : real.commit(write);
    },
  });
  const calls: [string, boolean][] = [];
  let left = 1;
  const observer: EvaluationObserver = {
    deliveries() {
      if (left-- > 0) throw new Error('outbox write failed');
      return [];
    },
    commitFailed(r, error, final) {
      calls.push([(error as Error).message, final]);
      assert.equal(r.evaluation_id, record.evaluation_id);
    },
  };
  const actor = new EvaluationActor(
    { ...store, evaluations },
    pool,
    record,
    [{ scenarioId: 's1', blueprint: new Uint8Array() }],
    () => T0,
    60_000,
    new GovernanceContexts({ ...store, evaluations }),
    observer,
  );
  actor.start();
  await actor.done;
  return { calls };
}

it('ends the evaluation as error when a write transaction fails, and leaves the open index', async () => {
  const { calls } = await run(false);
  assert.deepEqual(calls, [['outbox write failed', false]]);
  const stored = (await store.evaluations.get(record.evaluation_id))!;
  assert.equal(stored.status, 'error');
  assert.equal(stored.error, STORAGE_FAILED_MESSAGE);
  assert.deepEqual(await store.evaluations.listOpen(), []);
});

it('stops, and leaves the evaluation open for recovery, when the error record cannot be written either', async () => {
  const { calls } = await run(true);
  assert.deepEqual(calls, [
    ['outbox write failed', false],
    ['error record write failed', true],
  ]);
  assert.equal((await store.evaluations.get(record.evaluation_id))!.status, 'processing');
  assert.deepEqual(
    (await store.evaluations.listOpen()).map((r) => r.evaluation_id),
    [record.evaluation_id],
  );
});
