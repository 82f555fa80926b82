/** @module actors/task-failure: why a pool task failed, as data, told apart by classes and codes (issue 15, "Typed errors"). */
import { WORKER_ERROR_MESSAGE } from './worker-protocol.js';

/** Why a task failed. `pool_closed`: a forced close (shutdown past its deadline) ended or refused it. */
export type TaskFailureCode = 'timeout' | 'worker_crashed' | 'out_of_memory' | 'worker_error' | 'pool_closed';

/** Why a task failed, as data. */
export type TaskFailure = { readonly ok: false; readonly code: TaskFailureCode; readonly message: string };

/** The messages of the failures whose text does not depend on the task (a time-out's names its budget). */
const FAILURE_MESSAGES = {
  pool_closed: 'the evaluation pool was closed (shutdown)',
  out_of_memory: 'evaluation exceeded the worker memory limit',
  worker_crashed: 'the evaluation worker crashed',
  worker_error: WORKER_ERROR_MESSAGE,
} as const satisfies Partial<Record<TaskFailureCode, string>>;

const failure = (code: keyof typeof FAILURE_MESSAGES): TaskFailure => ({
  ok: false,
  code,
  message: FAILURE_MESSAGES[code],
});

/**
 * The abort reason of a task whose time budget ran out. The pool tells a time-out by this reason on
 * its own signal, not by what piscina rejects with (piscina's `AbortError` says only "The task has
 * been aborted", whoever aborted).
 */
export class TaskTimeout extends Error {
  readonly code = 'timeout';
  /** @param budgetMs the budget that ran out, in ms. */
  constructor(readonly budgetMs: number) {
    super(`evaluation exceeded its time budget of ${budgetMs} ms`);
    this.name = 'TaskTimeout';
  }
}

/**
 * The time budget of one task. `signal` (passed to `piscina.run`) aborts with a `TaskTimeout` `ms`
 * after `start()`, or after the last `refresh()`; piscina then rejects the task and terminates its
 * worker. `clear()` once the task settled.
 */
export class TaskBudget {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | null = null;

  /** @param ms the budget in ms. */
  constructor(readonly ms: number) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The reason when the budget ran out, else null. */
  get expired(): TaskTimeout | null {
    const reason: unknown = this.controller.signal.reason;
    return reason instanceof TaskTimeout ? reason : null;
  }

  /** Starts the clock (once; later calls do nothing). */
  start(): void {
    this.timer ??= setTimeout(() => this.controller.abort(new TaskTimeout(this.ms)), this.ms);
  }

  /** Restarts the clock with the full budget; does nothing before `start()`. */
  refresh(): void {
    this.timer?.refresh();
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}

/**
 * True for piscina's rejection of a task whose worker exited while running it (`process.exit`, a
 * native crash). piscina gives this case no class and no `code`: its worker `exit` listener rejects
 * with `new Error(\`worker exited with code: ${code}\`)` (piscina 5.3.2, src/index.ts:342,
 * `onWorkerExit`; dist/index.js:224). This is the one message match of the pool, kept here alone;
 * test/unit/task-failure.test.ts pins it against the installed piscina. Limit: a task's own error
 * arrives as a plain `Error` too (cloning keeps only the message), so a task that throws this very
 * message reads as a crash.
 */
export function isWorkerExit(err: unknown): boolean {
  return err instanceof Error && /^worker exited with code: -?\d+$/.test(err.message);
}

/**
 * Classifies a rejected pool task by typed properties, in this order: the pool was force-closed
 * (`pool_closed`); our budget's `TaskTimeout` aborted it (`timeout`); Node's worker error code
 * `ERR_WORKER_OUT_OF_MEMORY` (`out_of_memory`: the worker reached `resourceLimits`); piscina's worker
 * exit (`worker_crashed`, `isWorkerExit`); anything else is an error the task threw (`worker_error`).
 * A task's thrown error never carries a `code` here: worker_threads cloning drops it (PITFALLS 16).
 * @param context.closed the pool was force-closed; context.expired the task budget's `expired`.
 */
export function classifyTaskError(
  err: unknown,
  context: { readonly closed: boolean; readonly expired: TaskTimeout | null },
): TaskFailure {
  if (context.closed) return failure('pool_closed');
  if (context.expired) return { ok: false, code: 'timeout', message: context.expired.message };
  if ((err as { code?: unknown } | null | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY')
    return failure('out_of_memory');
  if (isWorkerExit(err)) return failure('worker_crashed');
  return failure('worker_error');
}
