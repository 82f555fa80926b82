/**
 * @module bench/scenarios/batches: scenario 3. `POST /evaluate` of 10 stored scenarios, polled to
 * `complete` with the spec's backoff (2, 3, 5, 8 s); scenarios evaluated per second through the API
 * (server-side span from the first submit to the last completion) against the engine's
 * single-thread in-process rate on the same blueprints, for 1, 2 and 4 workers. Issue 20 (item 4):
 * the service's CPU per scenario under saturation against the engine's, for the small fleet and the
 * corpus (bench/scenarios/batches-cpu).
 */
import { rmSync } from 'node:fs';
import { GovernanceClient } from '@gov/sdk';
import { evaluateBlueprint } from '../../src/engine/index.js';
import { exampleBlueprints, variant } from '../../src/fleet/variants.js';
import { startService } from '../lib/processes.js';
import { prepare } from '../lib/setup.js';
import { corpusBlueprints, freePort, measureSaturated, type SaturatedRun } from './batches-cpu.js';
import { BATCH_IDS, submitBatches } from '../lib/submit-batches.js';

export { BATCH_IDS, submitBatches, type Submitted } from '../lib/submit-batches.js';

/** One point of the scaling curve. */
export interface BatchPoint {
  readonly threads: number;
  readonly scenarios: number;
  readonly seconds: number;
  readonly scenariosPerSec: number;
}

/** Results of scenario 3. */
export interface BatchBench {
  readonly engineSingleThreadPerSec: number;
  readonly points: readonly BatchPoint[];
}

/** The engine alone, one thread, parse + evaluate of the same blueprints (scenarios per second). */
export function engineRate(texts: readonly string[], minMs: number): number {
  for (const t of texts.slice(0, 50)) evaluateBlueprint(JSON.parse(t), { scenarioId: 'w' });
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < minMs)
    for (const t of texts) {
      evaluateBlueprint(JSON.parse(t), { scenarioId: 'x' });
      n++;
    }
  return n / ((performance.now() - start) / 1000);
}

/** The 100 stored blueprints of the batch benchmarks (variants of our examples), as JSON; stored as `b0` … `b99`. */
export function batchBlueprints(): string[] {
  const examples = exampleBlueprints();
  return Array.from({ length: 100 }, (_, i) => JSON.stringify(variant(i, examples)));
}

/** What one measured set of batches took, by the server's own timestamps (epoch ms). */
export interface BatchSpan {
  readonly scenarios: number;
  /** `created_at` of the first batch, epoch ms. */
  readonly firstMs: number;
  /** `completed_at` of the last batch, epoch ms. */
  readonly lastMs: number;
}

/** Options of `warmAndMeasure`. */
export interface MeasureOptions {
  /** Warm-up batches before the measured ones (default as many as measured; 0 for none). */
  readonly warmBatches?: number;
  /** Runs between the warm-up and the measured batches (to start samplers). */
  readonly beforeMeasure?: () => Promise<void> | void;
}

/**
 * Warm-up then measurement: `warmBatches` batches submitted and polled to the end with a short
 * delay (so V8 has optimized the engine in every worker), then `batches` more, polled with the
 * spec's backoff (2, 3, 5, 8 s).
 * @throws Error when a submit is refused or a measured batch ends other than `complete`.
 */
export async function warmAndMeasure(
  clients: readonly GovernanceClient[],
  batches: number,
  extra: Record<string, unknown>,
  options: MeasureOptions = {},
): Promise<BatchSpan> {
  // Warm-up as long as the measurement (the engine reference is warmed for seconds too): with a
  // few batches only, V8 was still optimizing the engine in every worker during the measured
  // batches (TurboFan jobs took ~40% of a core).
  await Promise.all(
    (await submitBatches(clients, options.warmBatches ?? batches, { ...extra, tag: 'warm-up' })).map((s) =>
      s.client.waitForEvaluation(s.id, { intervalsMs: [100], timeoutMs: 600_000 }),
    ),
  );
  await options.beforeMeasure?.();
  const submitted = await submitBatches(clients, batches, { ...extra, tag: 'measure' });
  const done = await Promise.all(
    // Batches of 10: the SDK polls with the spec's backoff for 5 or more scenarios (2, 3, 5, 8 s).
    submitted.map((s) =>
      s.client.waitForEvaluation({ evaluation_id: s.id, total_scenarios: 10 }, { timeoutMs: 600_000 }),
    ),
  );
  const bad = done.find((d) => d.status !== 'complete');
  if (bad) throw new Error(`a batch ended ${bad.status}: ${JSON.stringify(bad).slice(0, 300)}`);
  return {
    scenarios: done.reduce((a, d) => a + d.completed, 0),
    firstMs: Math.min(...done.map((d) => Date.parse(d.created_at ?? ''))),
    lastMs: Math.max(...done.map((d) => Date.parse(d.completed_at ?? ''))),
  };
}

/** One blueprint set's CPU per scenario: the service under saturation against the engine in-process (µs). */
export interface BatchCpu {
  readonly set: 'small fleet' | 'corpus';
  readonly blueprints: number;
  readonly engineCpuUs: number;
  readonly run: SaturatedRun;
  /** Service CPU per scenario ÷ engine CPU per scenario. */
  readonly ratio: number;
}

/** Results of scenario 3 and of issue 20's batch CPU rows. */
export interface BatchesBench extends BatchBench {
  readonly cpu: readonly BatchCpu[];
  /** Worker threads of the service in the CPU runs. */
  readonly cpuThreads: number;
}

/** Sizes of a run of `benchBatches`. */
export interface BatchesOptions {
  /** Measured batches per point of the scaling curve (as many again for warm-up). */
  readonly curveBatches: number;
  /** Worker counts of the scaling curve (none: a quick run takes its point from the small fleet's CPU run). */
  readonly threadCounts: readonly number[];
  /** Saturated batches of the small fleet and of the corpus, each after its warm-up batches. */
  readonly smallBatches: number;
  readonly smallWarmBatches: number;
  readonly corpusBatches: number;
  readonly corpusWarmBatches: number;
  /** Worker threads of the CPU runs (the service's default: one per core). */
  readonly cpuThreads: number;
  /** Sampling time of the engine's single-thread rate (scenario 3), ms. */
  readonly engineMs: number;
}

/**
 * Runs scenario 3 (the scaling curve, one service per thread count) and the CPU per scenario of
 * both blueprint sets (one service with both sets stored: `b0` … `b99`, `c0` … `c49`). Without the
 * corpus (bench/lib/corpus-dir) only the small fleet's CPU is measured: `cpu` has no `corpus` entry.
 */
export async function benchBatches(o: BatchesOptions): Promise<BatchesBench> {
  const texts = batchBlueprints();
  const corpus = corpusBlueprints();
  const engineSingleThreadPerSec = engineRate(texts, o.engineMs);
  const corpusIds = corpus.map((_, i) => `c${i}`);
  const p = await prepare([
    ...texts.map((t, i) => [`b${i}`, t] as [string, string]),
    ...corpus.map((t, i) => [corpusIds[i]!, t] as [string, string]),
  ]);
  const points: BatchPoint[] = [];
  const cpu: BatchCpu[] = [];
  try {
    for (const threads of o.threadCounts) {
      const svc = await startService(p.dataDir, {
        POOL_THREADS: String(threads),
        POOL_MAX_QUEUE: String(o.curveBatches * 10 + 10),
        EVALUATION_TIMEOUT_MS: '600000',
      });
      try {
        const span = await warmAndMeasure(
          [new GovernanceClient({ baseUrl: svc.url, ...p.credentials })],
          o.curveBatches,
          { threads },
        );
        const seconds = (span.lastMs - span.firstMs) / 1000;
        points.push({ threads, scenarios: span.scenarios, seconds, scenariosPerSec: span.scenarios / seconds });
      } finally {
        await svc.stop();
      }
    }
    const metricsPort = await freePort();
    const most = Math.max(o.smallBatches, o.corpusBatches, o.smallWarmBatches, o.corpusWarmBatches);
    const svc = await startService(p.dataDir, {
      POOL_THREADS: String(o.cpuThreads),
      POOL_MAX_QUEUE: String(most * 10 + 10),
      EVALUATION_TIMEOUT_MS: '600000',
      METRICS_PORT: String(metricsPort),
    });
    try {
      const sets = [
        { set: 'small fleet' as const, ids: BATCH_IDS, batches: o.smallBatches, warm: o.smallWarmBatches },
        { set: 'corpus' as const, ids: corpusIds, batches: o.corpusBatches, warm: o.corpusWarmBatches },
      ].filter((s) => s.ids.length > 0);
      for (const s of sets) {
        const loop = s.set === 'corpus' ? 'corpus' : 'small';
        const run = await measureSaturated({
          node: svc,
          metricsPort,
          credentials: p.credentials,
          ids: s.ids,
          batches: s.batches,
          warmBatches: s.warm,
          workers: o.cpuThreads,
          set: loop,
        });
        cpu.push({
          set: s.set,
          blueprints: s.ids.length,
          engineCpuUs: run.engineCpuUs,
          run,
          ratio: run.cpuUsPerScenario / run.engineCpuUs,
        });
      }
    } finally {
      await svc.stop();
    }
  } finally {
    rmSync(p.dataDir, { recursive: true, force: true });
  }
  return { engineSingleThreadPerSec, points, cpu, cpuThreads: o.cpuThreads };
}
