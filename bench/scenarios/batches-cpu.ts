/**
 * @module bench/scenarios/batches-cpu: issue 20, item 4. The service's CPU per evaluated scenario of
 * stored batches of 10 under saturation (all threads of the process: main thread, workers, LMDB,
 * libuv; user + system from /proc), against the engine's CPU per scenario in-process (parse +
 * evaluate, one thread, the same blueprints). Two blueprint sets: the small fleet (`batchBlueprints`,
 * variants of our examples) and the corpus (the 50 real blueprints of `../shared/corpus/make/`, read
 * at run time and stored in the bench's data directory only).
 *
 * Saturation: every measured batch is submitted at once (16 clients), faster than the workers
 * evaluate, and the service's `/metrics` is scraped every SAMPLE_MS with the process's CPU read right
 * after each scrape. The window runs from just before the first submit to the last sample at which
 * the pool still had chunks waiting for a worker (`gov_pool_queue_depth` > 0), so every scenario
 * counted (`gov_scenarios_evaluated_total`) was evaluated while the queue was never empty; submits
 * are inside the window, the clients' polls are not (batches are checked once after it).
 */
import { createServer } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GovernanceClient } from '@gov/sdk';
import { evaluateBlueprint } from '../../src/engine/index.js';
import type { Child } from '../lib/processes.js';
import { median } from '../lib/stats.js';
import { submitBatches } from './batches.js';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/make/', import.meta.url));

/** Interval of the metrics scrapes and CPU readings, in ms (a scrape costs the service ~1 ms). */
const SAMPLE_MS = 250;

/** The corpus blueprints as JSON texts, in file-name order (read from the shared corpus, never copied). */
export function corpusBlueprints(): string[] {
  return readdirSync(CORPUS)
    .filter((f) => f.endsWith('.blueprint.json'))
    .sort()
    .map((f) => readFileSync(`${CORPUS}${f}`, 'utf8'));
}

/**
 * The engine's CPU per scenario in µs: parse + evaluate of every text in turn on this thread for at
 * least `minMs` after a warm-up of half as long (V8's optimizing compiler runs on other threads of
 * this process: measured before it is done, the figure came out twice as high), timed with
 * `process.cpuUsage()` (the bench process does nothing else meanwhile), so time lost to other
 * processes does not count.
 */
export function engineCpuUs(texts: readonly string[], minMs: number): number {
  const warm = performance.now();
  while (performance.now() - warm < minMs / 2)
    for (const t of texts) evaluateBlueprint(JSON.parse(t), { scenarioId: 'w' });
  let n = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  while (performance.now() - start < minMs)
    for (const t of texts) {
      evaluateBlueprint(JSON.parse(t), { scenarioId: 'x' });
      n++;
    }
  const used = process.cpuUsage(cpu0);
  return (used.user + used.system) / n;
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

/** One reading: epoch ms, process CPU seconds, scenarios evaluated so far, chunks waiting, scenarios in flight. */
interface Sample {
  readonly atMs: number;
  readonly cpuS: number;
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

async function sample(node: Child, metricsUrl: string): Promise<Sample> {
  const text = await (await fetch(metricsUrl)).text();
  return {
    atMs: Date.now(),
    cpuS: node.cpuSeconds(),
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
  /** Chunks waiting for a worker at the samples inside the window: lowest, median, highest. */
  readonly depthMin: number;
  readonly depthMedian: number;
  readonly depthMax: number;
  /** Lowest number of scenarios queued or running at the samples inside the window. */
  readonly inFlightMin: number;
  /** Samples inside the window. */
  readonly samples: number;
}

/**
 * Warm-up (`warmBatches` batches, waited for through the metrics), then `batches` batches of 10 of
 * `ids` submitted at once and measured as described in the module comment.
 * @throws Error when a batch ends other than `complete` or the queue emptied before a second sample.
 */
export async function measureSaturated(
  node: Child,
  metricsPort: number,
  credentials: { apiKey: string; signingSecret: string },
  ids: readonly string[],
  batches: number,
  warmBatches: number,
): Promise<SaturatedRun> {
  const client = new GovernanceClient({ baseUrl: node.url, ...credentials });
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const until = async (scenarios: number) => {
    for (;;) {
      const s = await sample(node, metricsUrl);
      if (s.evaluated >= scenarios) return s;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const base = (await sample(node, metricsUrl)).evaluated;
  await submitBatches([client], warmBatches, { tag: 'warm-up', set: ids[0] }, ids);
  await until(base + warmBatches * 10);
  const samples: Sample[] = [await sample(node, metricsUrl)];
  const target = samples[0]!.evaluated + batches * 10;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
      const s = await sample(node, metricsUrl);
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
    depthMin: Math.min(...inside.map((s) => s.depth)),
    depthMedian: median(inside.map((s) => s.depth)),
    depthMax: Math.max(...inside.map((s) => s.depth)),
    inFlightMin: Math.min(...inside.map((s) => s.inFlight)),
    samples: inside.length,
  };
}
