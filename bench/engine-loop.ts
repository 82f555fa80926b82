/**
 * @module bench/engine-loop: `node dist/bench/engine-loop.js small|corpus`, a child process of the
 * batches benchmark (bench/scenarios/batches-cpu). Evaluates the set's blueprints (parse + evaluate,
 * one thread) in a loop, in slices of about 20 ms, and answers each IPC message with the scenarios
 * evaluated so far and the process's CPU seconds (every thread: its GC and compiler threads too, as
 * for the service). Run during the service's measurement, it sees the same contention from the rest
 * of the machine, so the ratio of the two does not depend on how busy the machine is.
 */
import { evaluateBlueprint } from '../src/engine/index.js';
import { batchBlueprints } from './scenarios/batches.js';
import { corpusBlueprints } from './scenarios/batches-cpu.js';

const texts = process.argv[2] === 'corpus' ? corpusBlueprints() : batchBlueprints();
let count = 0;
let next = 0;

function slice(): void {
  const end = performance.now() + 20;
  while (performance.now() < end) {
    evaluateBlueprint(JSON.parse(texts[next]!), { scenarioId: 'x' });
    next = (next + 1) % texts.length;
    count++;
  }
  setImmediate(slice);
}

process.on('message', () => {
  const u = process.cpuUsage();
  process.send!({ count, cpuS: (u.user + u.system) / 1e6 });
});
process.on('disconnect', () => process.exit(0));
slice();
