/**
 * @module bench/scenarios/inline: scenario 2. `POST /evaluate/inline` of the median corpus blueprint
 * (by module count): the maximum throughput (closed loop), then p50/p99 at 70% of it on a fixed
 * schedule (open loop, wrk with a paced script; target p99 ≤ 3 × p50), alone and with a batch load
 * beside it (issue 20, item 5: stored-id batches submitted continuously by a separate client).
 * Without the corpus (bench/lib/corpus-dir) the blueprint is the median of `examples/` instead.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GovernanceClient } from '@gov/sdk';
import { corpusDir } from '../lib/corpus-dir.js';
import { startService } from '../lib/processes.js';
import { prepare } from '../lib/setup.js';
import type { LoadResult } from '../lib/wrk.js';
import { runWrk } from '../lib/wrk.js';
import { batchBlueprints } from './batches.js';
import { evaluateBlueprint } from '../../src/engine/index.js';

/** The repository's own example blueprints, the fallback when the corpus is absent. */
const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));

/**
 * Closed-loop warm-up before anything is measured, in seconds (quick runs: 5). With 1 s, V8 was still
 * compiling the service's code while the 70% run was measured: in a `perf record` 4-12 s after start,
 * TurboFan jobs were ~90% of the samples of V8's four background threads and ~29% of the process's
 * CPU, on a machine of 2 cores shared with the HTTP thread, both workers and wrk.
 */
const WARM_UP_S = { quick: 5, full: 10 } as const;
/**
 * The batch load beside the second run: one batch of 10 stored scenarios submitted every this many
 * ms (40 scenarios/s), each polled to its end. A steady stream rather than a closed loop: a closed
 * loop takes every cycle the inline schedule leaves, so on 2 cores the schedule itself could no
 * longer be kept (measured: 465 of 1,424 requests/s) and the percentiles would describe a queue.
 */
const BATCH_INTERVAL_MS = 250;
/** How often a submitted batch is polled, in ms. */
const BATCH_POLL_MS = 50;
/** Seconds of batch load before the inline run beside it is measured (the warm-up ran batches too: this only lets the stream reach its pace). */
const BATCH_WARM_UP_S = 2;

/**
 * The median blueprint by module count of the `make` corpus, or of `examples/` when the corpus folder
 * is missing; `file` is the corpus file's name, or `examples/<name>` for an example.
 */
export function medianBlueprint(): { file: string; modules: number; text: string } {
  const corpus = corpusDir('make');
  const [dir, prefix] = existsSync(corpus) ? [corpus, ''] : [EXAMPLES, 'examples/'];
  const all = readdirSync(dir)
    .filter((f) => f.endsWith('.blueprint.json'))
    .map((name) => {
      const file = `${prefix}${name}`;
      const text = readFileSync(join(dir, name), 'utf8');
      const r = evaluateBlueprint(JSON.parse(text), { scenarioId: name });
      return { file, text, modules: r.ok ? r.evaluation.module_count : 0 };
    })
    .sort((a, b) => a.modules - b.modules || a.file.localeCompare(b.file));
  return all[Math.floor(all.length / 2)]!;
}

/** The inline run beside a batch load, and what the batch load got done meanwhile. */
export interface InlineWithBatches {
  readonly at70: LoadResult;
  /** Batches completed while the inline run was measured. */
  readonly batches: number;
  /** Stored scenarios evaluated per second while the inline run was measured. */
  readonly scenariosPerSec: number;
}

/** Results of scenario 2. */
export interface InlineBench {
  readonly blueprint: string;
  readonly modules: number;
  readonly max: LoadResult;
  /** The schedule of both paced runs, in requests per second (70% of `max`). */
  readonly rate: number;
  readonly at70: LoadResult;
  readonly withBatches: InlineWithBatches;
}

/**
 * Share of the schedule a paced run must have delivered for its percentiles to describe the
 * schedule: below it the service (or the machine) fell behind, requests queued, and p99 ÷ p50 reads
 * low only because p50 grew too (a saturated run measured p50 281 ms, p99 582 ms: "2.07").
 */
export const KEPT_SCHEDULE = 0.95;

/** p99 ÷ p50 of a paced run, or NaN when it delivered less than KEPT_SCHEDULE of `rate`. */
export function tailRatio(run: LoadResult, rate: number): number {
  if (run.requestsPerSec < KEPT_SCHEDULE * rate) return Number.NaN;
  return run.p99Ms / Math.max(run.p50Ms, 0.001);
}

/** A running batch load: `stop()` ends it once the batches in flight ended and says how many completed since `mark()`. */
interface BatchLoad {
  mark(): void;
  stop(): Promise<{ batches: number; seconds: number }>;
}

/**
 * Submits a batch of 10 stored scenarios (`b0` … `b99` in turn) every BATCH_INTERVAL_MS and polls
 * each to its end.
 * @throws (from `stop`) Error when a submit was refused or a batch ended other than `complete`.
 */
function startBatchLoad(client: GovernanceClient): BatchLoad {
  let next = 0;
  let done = 0;
  let markAt = performance.now();
  let doneAtMark = 0;
  const inFlight: Promise<void>[] = [];
  const one = async (b: number): Promise<void> => {
    const body = { scenario_ids: Array.from({ length: 10 }, (_, i) => `b${(b * 10 + i) % 100}`), batch: b };
    const submitted = (await client.submitEvaluation(body)).data;
    const end = await client.waitForEvaluation(submitted.evaluation_id, {
      intervalsMs: [BATCH_POLL_MS],
      timeoutMs: 120_000,
    });
    if (end.status !== 'complete') throw new Error(`a batch ended ${end.status}`);
    done++;
  };
  const timer = setInterval(() => {
    const batch = one(next++);
    batch.catch(() => undefined); // observed here; `stop` rethrows the failure
    inFlight.push(batch);
  }, BATCH_INTERVAL_MS);
  return {
    mark() {
      markAt = performance.now();
      doneAtMark = done;
    },
    async stop() {
      const seconds = (performance.now() - markAt) / 1000;
      const batches = done - doneAtMark;
      clearInterval(timer);
      await Promise.all(inFlight);
      return { batches, seconds };
    },
  };
}

/** Runs scenario 2 with `threads` workers; `quick` shortens the warm-up. */
export async function benchInline(durationS: number, threads: number, quick = false): Promise<InlineBench> {
  const bp = medianBlueprint();
  const p = await prepare(batchBlueprints().map((t, i) => [`b${i}`, t] as [string, string]));
  const svc = await startService(p.dataDir, { POOL_THREADS: String(threads), POOL_MAX_QUEUE: '4096' });
  try {
    const body = `{"blueprint":${bp.text}}`;
    const base = {
      url: svc.url,
      method: 'POST' as const,
      path: '/api/public/v1/evaluate/inline',
      body,
      credentials: p.credentials,
    };
    const warmS = quick ? WARM_UP_S.quick : WARM_UP_S.full;
    // The warm-up runs the batch load beside the inline traffic, so the workers' code is compiled for
    // both (the second case's mix) before anything is measured: warmed on inline requests alone, the
    // first seconds of batches deoptimized the engine's shared code and the inline CPU per request
    // rose ~45% (621 → 896 µs, then 625 once recompiled), which the 70% schedule could not absorb.
    const warmLoad = startBatchLoad(new GovernanceClient({ baseUrl: svc.url, ...p.credentials }));
    try {
      await runWrk({ ...base, connections: 8, durationS: warmS, uniqueRequests: warmS * 5_000 });
    } finally {
      await warmLoad.stop();
    }
    // Maximum: closed loop, 16 connections. Then 70% of it on a fixed schedule (open loop), with
    // enough connections that a free one is always there when a request is due.
    const max = await runWrk({ ...base, connections: 16, durationS, uniqueRequests: durationS * 5_000 });
    const rate = Math.max(1, Math.floor(max.requestsPerSec * 0.7));
    const paced = { ...base, connections: 64, durationS, uniqueRequests: durationS * rate + 1_000, rate };
    const at70 = await runWrk(paced);
    // The same schedule with a batch load beside it.
    const load = startBatchLoad(new GovernanceClient({ baseUrl: svc.url, ...p.credentials }));
    let withLoad: LoadResult;
    let got: { batches: number; seconds: number };
    try {
      await new Promise((r) => setTimeout(r, BATCH_WARM_UP_S * 1000));
      load.mark();
      withLoad = await runWrk(paced);
    } finally {
      got = await load.stop();
    }
    return {
      blueprint: bp.file,
      modules: bp.modules,
      max,
      rate,
      at70,
      withBatches: { at70: withLoad, batches: got.batches, scenariosPerSec: (got.batches * 10) / got.seconds },
    };
  } finally {
    await svc.stop();
    rmSync(p.dataDir, { recursive: true, force: true });
  }
}
