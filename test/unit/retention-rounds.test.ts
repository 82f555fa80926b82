/**
 * The supervisor's retention (actors/evaluations `purgeRetired`): the cutoff is `now` minus
 * EVALUATION_RETENTION_DAYS, rounds of RETIRE_ROUND run until one deletes fewer, each round is
 * reported to the observer (the `gov_evaluations_retired_total` metric), 0 days keeps everything,
 * and the periodic purge can stop between rounds. The store is a stand-in that records its calls.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/store.js';
import type { EvaluationPool } from '../../src/actors/pool.js';
import { Evaluations, RETIRE_ROUND } from '../../src/actors/evaluations.js';

const NOW = Date.parse('2026-12-31T00:00:00Z');

/** A supervisor over a store whose `purgeRetired` answers `rounds` in turn (then 0). */
function supervisor(retentionDays: number, rounds: number[]) {
  const calls: { beforeMs: number; limit: number; busy: boolean }[] = [];
  const reported: number[] = [];
  const store = {
    evaluations: {
      purgeRetired: (beforeMs: number, busy: (id: string) => boolean, limit: number) => {
        calls.push({ beforeMs, limit, busy: busy('ev_any') });
        return Promise.resolve(rounds.shift() ?? 0);
      },
    },
  } as unknown as Store;
  const evaluations = new Evaluations(
    store,
    {} as EvaluationPool,
    () => NOW,
    { ephemeralTtlS: 3600, evaluationTimeoutMs: 1000, retentionDays },
    { retired: (n) => reported.push(n) },
  );
  return { evaluations, calls, reported };
}

it('retires in rounds of RETIRE_ROUND before now minus the retention, until a round deletes fewer', async () => {
  const { evaluations, calls, reported } = supervisor(30, [RETIRE_ROUND, RETIRE_ROUND, 7]);
  assert.equal(await evaluations.purgeRetired(), 2 * RETIRE_ROUND + 7);
  assert.deepEqual(
    calls,
    Array.from({ length: 3 }, () => ({ beforeMs: NOW - 30 * 86_400_000, limit: RETIRE_ROUND, busy: false })),
  );
  assert.deepEqual(reported, [RETIRE_ROUND, RETIRE_ROUND, 7]);
});

it('keeps everything with 0 days, reports no empty round, and stops between rounds when told', async () => {
  const off = supervisor(0, [RETIRE_ROUND]);
  assert.equal(await off.evaluations.purgeRetired(), 0);
  assert.equal(off.calls.length, 0, 'the store is not even asked');

  const empty = supervisor(1, []);
  assert.equal(await empty.evaluations.purgeRetired(), 0);
  assert.deepEqual(empty.reported, []);

  const stopped = supervisor(1, [RETIRE_ROUND, RETIRE_ROUND, RETIRE_ROUND]);
  let rounds = 0;
  assert.equal(await stopped.evaluations.purgeRetired(NOW, () => rounds++ < 2), 2 * RETIRE_ROUND);
  assert.equal(stopped.calls.length, 2);
});
