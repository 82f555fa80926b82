/**
 * @module test/helpers/fault-worker: a piscina worker that fails on request, to pin what piscina
 * rejects a task with in each case (test/unit/task-failure.test.ts). Not a test file.
 */

/** How the task should end. */
export type Fault = 'ok' | 'throw-misleading' | 'throw-with-code' | 'exit' | 'oom' | 'hang';

/** A message that names every case the old message regexes looked for. */
export const MISLEADING_MESSAGE = 'task timeout: aborted; worker exited with code 1, exit code 1; out of memory';

/** Piscina task handler. */
export default function fail(fault: Fault): string {
  if (fault === 'throw-misleading') throw new Error(MISLEADING_MESSAGE);
  if (fault === 'throw-with-code') throw Object.assign(new Error('has a code'), { code: 'ERR_WORKER_OUT_OF_MEMORY' });
  if (fault === 'exit') process.exit(3);
  if (fault === 'hang')
    for (;;) {
      /* until the budget aborts the task */
    }
  if (fault === 'oom') {
    const hog: unknown[] = [];
    for (;;) hog.push(new Array(1e6).fill(hog.length));
  }
  return 'ok';
}
