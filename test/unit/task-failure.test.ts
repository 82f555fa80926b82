/**
 * Pool task failures are told apart by class and code, never by message text (issue 15): the pure
 * classification, and what the installed piscina really rejects with for a throw, a worker exit,
 * an out-of-memory worker and an aborted task (a real pool on a fixture worker).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Piscina } from 'piscina';
import {
  classifyTaskError,
  isWorkerExit,
  TaskBudget,
  TaskTimeout,
  type TaskFailure,
} from '../../src/actors/task-failure.js';
import { WORKER_ERROR_MESSAGE } from '../../src/actors/worker-protocol.js';
import { MISLEADING_MESSAGE, type Fault } from '../helpers/fault-worker.js';

const OPEN = { closed: false, expired: null } as const;

describe('classifyTaskError', () => {
  it('reads a thrown error as worker_error whatever its message says', () => {
    for (const message of [MISLEADING_MESSAGE, 'The operation was aborted due to timeout', 'JS heap out of memory']) {
      assert.deepEqual(
        classifyTaskError(new Error(message), OPEN),
        { ok: false, code: 'worker_error', message: WORKER_ERROR_MESSAGE },
        message,
      );
    }
    const named = Object.assign(new Error('x'), { name: 'AbortError' });
    assert.equal(classifyTaskError(named, OPEN).code, 'worker_error', 'an abort that is not our budget is no time-out');
    assert.equal(classifyTaskError(new DOMException('x', 'TimeoutError'), OPEN).code, 'worker_error');
    assert.equal(classifyTaskError({}, OPEN).code, 'worker_error', 'what an uncloneable throw arrives as');
    assert.equal(classifyTaskError(undefined, OPEN).code, 'worker_error');
  });

  it("reads a time-out from the budget, out of memory from Node's code, a crash from piscina's exit", () => {
    assert.deepEqual(
      classifyTaskError(new Error('The task has been aborted'), { closed: false, expired: new TaskTimeout(250) }),
      { ok: false, code: 'timeout', message: 'evaluation exceeded its time budget of 250 ms' },
    );
    assert.deepEqual(classifyTaskError(Object.assign(new Error('any'), { code: 'ERR_WORKER_OUT_OF_MEMORY' }), OPEN), {
      ok: false,
      code: 'out_of_memory',
      message: 'evaluation exceeded the worker memory limit',
    });
    assert.deepEqual(classifyTaskError(new Error('worker exited with code: 3'), OPEN), {
      ok: false,
      code: 'worker_crashed',
      message: 'the evaluation worker crashed',
    });
  });

  it('reads every failure of a force-closed pool as pool_closed', () => {
    for (const err of [new Error('Terminating worker thread'), new Error('worker exited with code: 1')]) {
      assert.deepEqual(classifyTaskError(err, { closed: true, expired: new TaskTimeout(1) }), {
        ok: false,
        code: 'pool_closed',
        message: 'the evaluation pool was closed (shutdown)',
      });
    }
  });

  it("matches only piscina's exact worker-exit message", () => {
    assert.equal(isWorkerExit(new Error('worker exited with code: -1')), true);
    for (const message of [
      'the worker exited with code: 1',
      'worker exited with code: 1 (and more)',
      'exit code 1',
      'worker exited',
    ])
      assert.equal(isWorkerExit(new Error(message)), false, message);
    assert.equal(isWorkerExit({ message: 'worker exited with code: 1' }), false, 'not an Error');
  });
});

describe('TaskBudget', () => {
  it('aborts its signal with a TaskTimeout once the budget has run out from the last refresh', async () => {
    const budget = new TaskBudget(60);
    await sleep(80);
    assert.equal(budget.signal.aborted, false, 'the clock starts at start()');
    budget.start();
    await sleep(40);
    budget.refresh();
    await sleep(40);
    assert.equal(budget.signal.aborted, false, 'refreshed 40 ms in: 80 ms after start is within budget');
    await sleep(60);
    assert.equal(budget.signal.aborted, true);
    assert.ok(budget.signal.reason instanceof TaskTimeout);
    assert.equal(budget.expired?.budgetMs, 60);
  });

  it('never expires once cleared', async () => {
    const budget = new TaskBudget(20);
    budget.start();
    budget.clear();
    await sleep(40);
    assert.equal(budget.signal.aborted, false);
    assert.equal(budget.expired, null);
  });
});

describe('what the installed piscina rejects with', () => {
  let pool: Piscina;
  before(() => {
    pool = new Piscina({
      filename: fileURLToPath(new URL('../helpers/fault-worker.js', import.meta.url)),
      minThreads: 1,
      maxThreads: 1,
      atomics: 'async',
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    });
    pool.on('error', () => undefined);
  });
  after(() => pool.destroy());

  /** Runs one task under a budget and classifies its rejection as the evaluation pool does. */
  const outcome = async (fault: Fault, budgetMs = 30_000): Promise<{ err: unknown; failure: TaskFailure }> => {
    const budget = new TaskBudget(budgetMs);
    budget.start();
    try {
      await pool.run(fault, { signal: budget.signal });
      throw new assert.AssertionError({ message: `${fault}: the task resolved` });
    } catch (err) {
      if (err instanceof assert.AssertionError) throw err;
      return { err, failure: classifyTaskError(err, { closed: false, expired: budget.expired }) };
    } finally {
      budget.clear();
    }
  };

  it('rejects a task that throws with a plain Error without its code: worker_error, even when its message names other failures', async () => {
    const { err, failure } = await outcome('throw-misleading');
    assert.equal((err as Error).message, MISLEADING_MESSAGE);
    assert.equal(failure.code, 'worker_error');
    const coded = await outcome('throw-with-code');
    assert.equal((coded.err as { code?: string }).code, undefined, 'cloning dropped the code (PITFALLS 16)');
    assert.equal(coded.failure.code, 'worker_error');
  });

  it('rejects a task whose worker calls process.exit with its worker-exit Error: worker_crashed', async () => {
    const { err, failure } = await outcome('exit');
    assert.equal(isWorkerExit(err), true, `piscina's exit rejection changed: ${String(err)}`);
    assert.equal((err as Error).message, 'worker exited with code: 3');
    assert.equal(failure.code, 'worker_crashed');
  });

  it("rejects a task whose worker runs out of memory with Node's ERR_WORKER_OUT_OF_MEMORY: out_of_memory", async () => {
    const { err, failure } = await outcome('oom');
    assert.equal((err as { code?: string }).code, 'ERR_WORKER_OUT_OF_MEMORY');
    assert.equal(failure.code, 'out_of_memory');
  });

  it("rejects a task past its budget with piscina's AbortError carrying our reason: timeout", async () => {
    const { err, failure } = await outcome('hang', 200);
    assert.equal((err as Error).name, 'AbortError');
    assert.ok((err as Error).cause instanceof TaskTimeout, "piscina passes the signal's reason as cause");
    assert.deepEqual(failure, { ok: false, code: 'timeout', message: 'evaluation exceeded its time budget of 200 ms' });
  });

  it('still runs tasks after each failure (the worker was replaced)', async () => {
    assert.equal(await pool.run('ok'), 'ok');
  });
});
