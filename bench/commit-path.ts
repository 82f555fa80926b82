/**
 * @module bench/commit-path: `node dist/bench/commit-path.js [rounds] [baseline dist dir]`, the main
 * thread's LMDB commit path of stored batches, alone, on one thread (issue 20, item 4). Each round is
 * a child process that drives the evaluations repository the way the evaluation actor does for a
 * batch of 10 stored scenarios: `create` (flushed), `processing`, two outcome commits of five results
 * (the second terminal), 8 evaluations in flight so that the write batcher shares transactions, the
 * results rendered by the worker's own code from the batch benchmark's blueprints. It prints the
 * main thread's CPU per scenario (/proc/thread-self/stat, user + system) of the measured evaluations
 * after a warm-up (the scenarios' histories full, so the trim runs). With a baseline dist dir
 * (another build of this repository), rounds alternate between it and this build, in the same
 * conditions, so that the machine's load affects both alike.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchBlueprints } from './scenarios/batches.js';
import { alternateBuilds } from './lib/builds.js';
import { median } from './lib/stats.js';
import type { EvaluationRecord } from '../src/model/records.js';
import type { ScenarioTaskResult } from '../src/actors/worker-protocol.js';

const ORG = 'org_bench';
const IN_FLIGHT = 8;
const WARM_EVALUATIONS = 600;
const MEASURED_EVALUATIONS = 1500;

/**
 * CPU time of the calling (main) thread in µs, user + system, from /proc (clock ticks of 10 ms: the
 * measured part of a round is seconds long). `process.cpuUsage()` would add LMDB's write thread and
 * V8's background threads, which are not the main thread's commit path.
 */
function mainThreadCpuUs(): number {
  const stat = readFileSync('/proc/thread-self/stat', 'latin1');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** One round in this process, against the build under `root` (a dist directory). @returns µs per scenario. */
async function round(root: string): Promise<number> {
  // Another build has the same modules: typed as this build's.
  const { LmdbStore } = (await import(
    join(root, 'src/store/lmdb/store.js')
  )) as typeof import('../src/store/lmdb/store.js');
  const worker = (
    (await import(join(root, 'src/actors/evaluation-worker.js'))) as typeof import('../src/actors/evaluation-worker.js')
  ).default;
  const { withOutcomes } = (await import(
    join(root, 'src/actors/transitions.js')
  )) as typeof import('../src/actors/transitions.js');
  const { DEFAULT_GOVERNANCE } = (await import(
    join(root, 'src/actors/worker-protocol.js')
  )) as typeof import('../src/actors/worker-protocol.js');
  const dir = mkdtempSync(join(tmpdir(), 'commit-path-'));
  const store = new LmdbStore(dir);
  try {
    const texts: string[] = batchBlueprints();
    const ids = texts.map((_, i) => `b${i}`);
    const nowIso = () => new Date().toISOString();
    for (const [i, text] of texts.entries())
      await store.scenarios.save({
        orgId: ORG,
        scenarioId: ids[i]!,
        name: `scenario ${i}`,
        blueprintJson: text,
        moduleCount: 1,
        nowIso: nowIso(),
      });
    const outcomes = texts.map((text, i) =>
      worker({
        kind: 'scenario',
        scenarioId: ids[i]!,
        blueprint: Buffer.from(text),
        evaluationId: 'e',
        evaluatedAt: nowIso(),
        governance: DEFAULT_GOVERNANCE,
      }),
    );
    let n = 0;
    const one = async (): Promise<void> => {
      const first = (n++ * 10) % texts.length;
      const scenarioIds = ids.slice(first, first + 10);
      const now = nowIso();
      let record: EvaluationRecord = {
        evaluation_id: `ev-${String(n).padStart(8, '0')}-0000-0000-0000-000000000000`,
        org_id: ORG,
        kind: 'stored',
        status: 'pending',
        scenario_ids: scenarioIds,
        versions: scenarioIds.map(() => 1),
        total_scenarios: 10,
        completed: 0,
        scenarios: scenarioIds.map(() => null),
        error: null,
        created_at: now,
        updated_at: now,
        completed_at: null,
        expires_at: null,
        key_id: 'key_bench',
        governance: DEFAULT_GOVERNANCE.pin,
      };
      await store.evaluations.create(record);
      record = { ...record, status: 'processing', updated_at: nowIso() };
      void store.evaluations.commit({ record, results: [] });
      for (const half of [0, 5]) {
        const batch = [0, 1, 2, 3, 4].map((j) => ({
          index: half + j,
          result: outcomes[first + half + j] as ScenarioTaskResult,
        }));
        const change = withOutcomes(record, batch, nowIso())!;
        record = change.record;
        const committed = store.evaluations.commit(change);
        if (half === 5) await committed.then(() => store.flushed());
        else await new Promise((r) => setImmediate(r));
      }
    };
    const run = async (count: number): Promise<void> => {
      let started = 0;
      const lane = async (): Promise<void> => {
        while (started < count) {
          started++;
          await one();
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    };
    await run(WARM_EVALUATIONS);
    const before = mainThreadCpuUs();
    await run(MEASURED_EVALUATIONS);
    return (mainThreadCpuUs() - before) / (MEASURED_EVALUATIONS * 10);
  } finally {
    await store.tables.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env['COMMIT_PATH_ROOT']) {
  const us = await round(process.env['COMMIT_PATH_ROOT']);
  if (process.send) process.send(us);
  else console.log(`${us.toFixed(1)} µs per scenario`);
} else {
  const figures = await alternateBuilds<number>(import.meta.url, 'COMMIT_PATH_ROOT', (name, us) =>
    console.log(`${name}: ${us.toFixed(1)} µs per scenario`),
  );
  for (const [name, list] of figures)
    console.log(
      `${name}: min ${Math.min(...list).toFixed(1)}, median ${median(list).toFixed(1)} µs per scenario (${list.length} rounds)`,
    );
}
