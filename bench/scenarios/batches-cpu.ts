/**
 * @module bench/scenarios/batches-cpu: issue 20, item 4. The service's CPU per evaluated scenario of
 * stored batches of 10 under saturation (all threads of the process: main thread, workers, LMDB,
 * libuv; user + system from /proc), against the engine's CPU per scenario in-process (parse +
 * evaluate, one thread, the same blueprints). Two blueprint sets: the small fleet (`batchBlueprints`,
 * variants of our examples) and the corpus (the 50 real blueprints of the `make` corpus, bench/lib/corpus-dir, read
 * at run time and stored in the bench's data directory only).
 *
 * Saturation: every measured batch is submitted at once (16 clients), faster than the workers
 * evaluate, and the service's `/metrics` is scraped every SAMPLE_MS with the process's CPU read right
 * after each scrape. The engine reference runs at the same time in a child process (bench/engine-loop,
 * read at every sample), so both see the same load from the rest of the machine: on the shared
 * 2-core test machine the engine's CPU per scenario measured alone varied fourfold from one minute to
 * the next (172-886 µs on the small fleet), which no sequential ratio survives. The window runs from just before the first submit to the last sample at which
 * the pool still had chunks waiting for a worker (`gov_pool_queue_depth` > 0), so every scenario
 * counted (`gov_scenarios_evaluated_total`) was evaluated while the queue was never empty; submits
 * are inside the window, the clients' polls are not (batches are checked once after it).
 */
import { createServer } from 'node:net';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GovernanceClient } from '@gov/sdk';
import { fork, spawnSync } from 'node:child_process';
import { killAtExit } from '../lib/cleanup.js';
import { corpusDir } from '../lib/corpus-dir.js';
import type { Child } from '../lib/processes.js';
import { median } from '../lib/stats.js';
import { submitBatches } from '../lib/submit-batches.js';

const ENGINE_LOOP = fileURLToPath(new URL('../engine-loop.js', import.meta.url));

/** Clock ticks per second of /proc stat files. */
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** Interval of the metrics scrapes and CPU readings, in ms (a scrape counts in the service's CPU: its gauges read every open evaluation). */
const SAMPLE_MS = 500;

/**
 * The `make` corpus's blueprints as JSON texts, in file-name order (read in place, never copied);
 * none when the corpus folder is missing (bench/lib/corpus-dir).
 */
export function corpusBlueprints(): string[] {
  const dir = corpusDir('make');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.blueprint.json'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

/** A free TCP port on 127.0.0.1 (for the service's METRICS_PORT, which the bench must know). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** CPU seconds (user + system) of each thread of process `pid` by thread id (/proc/<pid>/task/<tid>/stat). */
function threadSeconds(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), (Number(f[11]) + Number(f[12])) / CLK_TCK);
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** The engine loop (bench/engine-loop) running beside the service: scenarios evaluated so far and its CPU seconds. */
interface EngineReading {
  readonly count: number;
  readonly cpuS: number;
}

/** Starts bench/engine-loop on blueprint set `set`; `read()` asks it for a reading. */
function startEngineLoop(set: 'small' | 'corpus'): { read(): Promise<EngineReading>; stop(): void } {
  const child = fork(ENGINE_LOOP, [set], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  killAtExit(child);
  return {
    read: () =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve(m as EngineReading));
        child.send('read');
      }),
    stop: () => child.kill('SIGKILL'),
  };
}

/** One reading: epoch ms, process CPU seconds (and per thread), scenarios evaluated so far, chunks waiting, scenarios in flight, the engine loop's reading. */
interface Sample {
  readonly atMs: number;
  readonly engine: EngineReading;
  readonly cpuS: number;
  readonly threads: Map<number, number>;
  readonly evaluated: number;
  readonly depth: number;
  readonly inFlight: number;
}

/** Sum of every series of metric `name` in a Prometheus text exposition. */
function metric(text: string, name: string): number {
  let sum = 0;
  for (const line of text.split('\n'))
    if (line.startsWith(name) && (line[name.length] === ' ' || line[name.length] === '{'))
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  return sum;
}

async function sample(node: Child, metricsUrl: string, engine: { read(): Promise<EngineReading> }): Promise<Sample> {
  const [response, reading] = await Promise.all([fetch(metricsUrl), engine.read()]);
  const text = await response.text();
  return {
    atMs: Date.now(),
    engine: reading,
    cpuS: node.cpuSeconds(),
    threads: threadSeconds(node.child.pid!),
    evaluated: metric(text, 'gov_scenarios_evaluated_total'),
    depth: metric(text, 'gov_pool_queue_depth'),
    inFlight: metric(text, 'gov_pool_tasks_in_flight'),
  };
}

/** A saturated run's figures (CPU in µs, queue depth in chunks of 10 waiting for a worker). */
export interface SaturatedRun {
  readonly scenarios: number;
  readonly seconds: number;
  readonly scenariosPerSec: number;
  /** CPU of every thread of the service process per scenario evaluated in the window, µs. */
  readonly cpuUsPerScenario: number;
  /** CPU of the engine loop (every thread of its process) per scenario it evaluated in the same window, µs. */
  readonly engineCpuUs: number;
  /** Chunks waiting for a worker at the samples inside the window: lowest, median, highest. */
  readonly depthMin: number;
  readonly depthMedian: number;
  readonly depthMax: number;
  /** Lowest number of scenarios queued or running at the samples inside the window. */
  readonly inFlightMin: number;
  /** Samples inside the window. */
  readonly samples: number;
  /**
   * The CPU per scenario split by thread, µs: the main thread; the `workers` busiest other threads
   * (the pool's workers: Node names every thread `node`, so they are told apart by their CPU); the
   * rest (V8's GC and compiler threads, libuv's pool, LMDB's writer).
   */
  readonly byThread: { readonly main: number; readonly workers: number; readonly other: number };
}

/** `byThread` of the CPU between two samples, per scenario. */
function splitThreads(pid: number, a: Sample, b: Sample, workers: number, scenarios: number): SaturatedRun['byThread'] {
  const deltas = [...b.threads].map(([tid, s]) => [tid, s - (a.threads.get(tid) ?? 0)] as const);
  const us = (x: number) => (x * 1e6) / scenarios;
  const main = deltas.find(([tid]) => tid === pid)?.[1] ?? 0;
  const rest = deltas
    .filter(([tid]) => tid !== pid)
    .map(([, d]) => d)
    .sort((x, y) => y - x);
  const busiest = rest.slice(0, workers).reduce((x, y) => x + y, 0);
  const other = rest.slice(workers).reduce((x, y) => x + y, 0);
  return { main: us(main), workers: us(busiest), other: us(other) };
}

/**
 * Warm-up (`warmBatches` batches, waited for through the metrics), then `batches` batches of 10 of
 * `ids` submitted at once and measured as described in the module comment, with the engine loop on
 * the same blueprints (`set`) running beside the service from the warm-up on.
 * @throws Error when a batch ends other than `complete` or the queue emptied before a second sample.
 */
export async function measureSaturated(o: SaturatedOptions): Promise<SaturatedRun> {
  const engine = startEngineLoop(o.set);
  try {
    return await measureWith(engine, o);
  } finally {
    engine.stop();
  }
}

/** What `measureSaturated` measures: the service, its metrics port, the key, the stored ids and the batches. */
export interface SaturatedOptions {
  readonly node: Child;
  readonly metricsPort: number;
  readonly credentials: { apiKey: string; signingSecret: string };
  readonly ids: readonly string[];
  readonly batches: number;
  readonly warmBatches: number;
  /** Worker threads of the service (its busiest threads besides the main one). */
  readonly workers: number;
  /** The blueprints of the engine loop beside the service. */
  readonly set: 'small' | 'corpus';
}

async function measureWith(
  engine: { read(): Promise<EngineReading> },
  { node, metricsPort, credentials, ids, batches, warmBatches, workers }: SaturatedOptions,
): Promise<SaturatedRun> {
  const client = new GovernanceClient({ baseUrl: node.url, ...credentials });
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const until = async (scenarios: number) => {
    for (;;) {
      const s = await sample(node, metricsUrl, engine);
      if (s.evaluated >= scenarios) return s;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const base = (await sample(node, metricsUrl, engine)).evaluated;
  await submitBatches([client], warmBatches, { tag: 'warm-up', set: ids[0] }, ids);
  await until(base + warmBatches * 10);
  const samples: Sample[] = [await sample(node, metricsUrl, engine)];
  const target = samples[0]!.evaluated + batches * 10;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
      const s = await sample(node, metricsUrl, engine);
      samples.push(s);
      if (s.evaluated >= target) done = true;
    }
  })();
  const submitted = await submitBatches([client], batches, { tag: 'measure', set: ids[0] }, ids);
  await sampler;
  const states = await Promise.all(submitted.map(async (s) => (await s.client.getEvaluation(s.id)).data.status));
  const bad = states.find((s) => s !== 'complete');
  if (bad) throw new Error(`a measured batch ended ${bad}`);
  let last = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i]!.depth > 0) last = i;
  if (last < 2) throw new Error('the queue emptied before the second sample: not saturated (more batches needed)');
  const inside = samples.slice(1, last + 1);
  const a = samples[0]!;
  const b = samples[last]!;
  const scenarios = b.evaluated - a.evaluated;
  const seconds = (b.atMs - a.atMs) / 1000;
  return {
    scenarios,
    seconds,
    scenariosPerSec: scenarios / seconds,
    cpuUsPerScenario: ((b.cpuS - a.cpuS) * 1e6) / scenarios,
    engineCpuUs: ((b.engine.cpuS - a.engine.cpuS) * 1e6) / (b.engine.count - a.engine.count),
    depthMin: Math.min(...inside.map((s) => s.depth)),
    depthMedian: median(inside.map((s) => s.depth)),
    depthMax: Math.max(...inside.map((s) => s.depth)),
    inFlightMin: Math.min(...inside.map((s) => s.inFlight)),
    samples: inside.length,
    byThread: splitThreads(node.child.pid!, a, b, workers, scenarios),
  };
}
