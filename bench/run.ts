/**
 * @module bench/run: `npm run bench [-- <name...>] [--quick]`. Runs the benchmarks (default all of
 * bench/lib/scenarios' BENCH_SCENARIOS), prints a Markdown table of every target with its measured
 * ratio, writes `bench/results/<date>-<name>[-quick].json` (with the table's rows), compares each row
 * with the newest previous run of the same mode (bench/lib/baseline), and on a full run of all of
 * them with nothing skipped rewrites `docs/performance.md`. Figures are ratios measured in the same
 * run on the same machine; absolute numbers are reported beside them. Rows that read the corpora
 * (bench/lib/corpus-dir) are skipped with one line when those are absent.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchEngine } from './engine.js';
import { benchSignedReads } from './scenarios/signed-reads.js';
import { LOG_PHASE_MS } from './lib/log-phases.js';
import { benchInline, tailRatio } from './scenarios/inline.js';
import { benchBatches } from './scenarios/batches.js';
import { benchIsolation } from './scenarios/isolation.js';
import { benchFleet } from './scenarios/fleet.js';
import { benchSoak } from './scenarios/soak.js';
import { benchFuzzSoak } from './scenarios/fuzz-soak.js';
import { benchCluster } from './scenarios/cluster.js';
import { benchScanSarif } from './scenarios/scan-sarif.js';
import { batchesDetail, clusterTables, readsDetail } from './scenarios/cluster-report.js';
import { redisAvailable } from './lib/redis-server.js';
import { wrkAvailable } from './lib/wrk.js';
import type { ResultRow } from './lib/compare.js';
import { comparisonReport, readPreviousRuns } from './lib/baseline.js';
import {
  BENCH_SCENARIOS,
  CORPUS_ROWS,
  corpusSkips,
  parseBenchArgs,
  type BenchArgs,
  type BenchScenario,
} from './lib/scenarios.js';
import { keptSection } from './lib/profile-doc.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let parsed: BenchArgs;
try {
  parsed = parseBenchArgs(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`bench: ${(err as Error).message}\n`);
  process.exit(2);
}
const { names, quick } = parsed;
const all = names.length === BENCH_SCENARIOS.length;
/** Scenarios whose corpus rows are skipped: their corpus folder is missing (bench/lib/corpus-dir). */
const corpus = corpusSkips(names);
/** Runs of the same mode on record before this one writes its own (bench/lib/baseline). */
const previous = readPreviousRuns(
  `${ROOT}bench/results`,
  existsSync(`${ROOT}docs/performance.md`) ? readFileSync(`${ROOT}docs/performance.md`, 'utf8') : null,
);
/** Wall time of each benchmark run, in the order they ran (printed at the end: a quick run should take under 2 minutes). */
const laps: { name: string; startMs: number; ms?: number }[] = [];
const runStartMs = performance.now();
/** True when benchmark `name` is to run; the first time, it also starts its lap (and ends the previous one). */
const selected = (name: BenchScenario): boolean => {
  const yes = names.includes(name);
  const last = laps[laps.length - 1];
  if (yes && last?.name !== name) {
    if (last) last.ms = performance.now() - last.startMs;
    laps.push({ name, startMs: performance.now() });
  }
  return yes;
};
/** Worker threads of the service under test: the service's default (one per core) unless BENCH_THREADS says otherwise. */
const threads = Number(process.env['BENCH_THREADS'] ?? availableParallelism());
/** Traffic of the full fuzz soak in seconds (`BENCH_FUZZ_SOAK_S`, default 600; quick runs take 6). */
const fuzzSoakSeconds = Number(process.env['BENCH_FUZZ_SOAK_S'] ?? 600);
const stamp = new Date().toISOString().slice(0, 10);
const rows: string[] = [];
/** The measured rows of the scenario running now, saved with its results (the next runs' baseline). */
let measured: ResultRow[] = [];
/** Every measured row of this run (skipped rows are not compared). */
const runRows: ResultRow[] = [];
/** Rows skipped in this run (a tool or a corpus missing): a full run with any does not rewrite docs/performance.md. */
let skippedRows = 0;
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${quick ? 'quick' : 'full'} run`;

function save(name: string, data: unknown): void {
  mkdirSync(`${ROOT}bench/results`, { recursive: true });
  const file = `${ROOT}bench/results/${stamp}-${name}${quick ? '-quick' : ''}.json`;
  writeFileSync(
    file,
    `${JSON.stringify({ name, at: new Date().toISOString(), machine, quick, tableRows: measured, ...(data as object) }, null, 2)}\n`,
  );
  measured = [];
  process.stdout.write(`  wrote ${file}\n`);
}
const r2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const us = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? `${x.toFixed(1)} µs` : 'n/a');
function row(scenario: string, target: string, figure: string, met: boolean, detail: string): void {
  rows.push(`| ${scenario} | ${target} | ${figure} | ${met ? 'yes' : '**no**'} | ${detail} |`);
  measured.push({ scenario, target, measured: figure });
  runRows.push({ scenario, target, measured: figure });
  process.stdout.write(`${met ? 'MET ' : 'MISS'} ${scenario}: ${target}: ${figure} (${detail})\n`);
}
/** A row of the table for rows that did not run (`why`: e.g. `wrk unavailable`); nothing is measured or saved for it. */
function skipRow(scenario: string, why: string): void {
  rows.push(`| ${scenario} | | skipped: ${why} | | |`);
  skippedRows++;
}

async function main(): Promise<void> {
  process.stdout.write(`Benchmarks on ${machine}\n`);
  if (corpus.line) process.stdout.write(`${corpus.line}\n`);
  if (selected('engine') && corpus.skipped.has('engine')) skipRow(CORPUS_ROWS.engine!.rows, 'no corpus');
  else if (selected('engine')) {
    const r = benchEngine(quick ? 20 : 350);
    row(
      'Engine (issue 3)',
      'median eval ÷ JSON.parse ≤ 3',
      r2(r.medianRatio),
      r.medianRatio <= 3,
      `50 corpus blueprints`,
    );
    row('Engine (issue 3)', 'worst eval ÷ JSON.parse ≤ 10', r2(r.worstRatio), r.worstRatio <= 10, 'same run');
    save('engine', r);
  }
  if (selected('signed-reads') && !wrkAvailable()) {
    process.stdout.write(
      'SKIP 1 Signed reads and 6 Metrics cost: wrk is not installed and scripts/ensure-bench-tools.sh could not install it\n',
    );
    skipRow('1 Signed reads, 6 Metrics cost', 'wrk unavailable');
  } else if (selected('signed-reads')) {
    // Quick: 1 s of warm-up, one round of 2 s per target, 30,000 distinct requests per second (a check before a commit, under 2 minutes in all).
    const r = await benchSignedReads(quick ? 2 : 3, quick ? 1 : 7, 64, quick ? 1 : 3, quick ? 30_000 : 160_000);
    const vsUws = r.signed.requestsPerSec / r.uws.requestsPerSec;
    const vsFastify = r.signed.requestsPerSec / r.fastify.requestsPerSec;
    const c = r.cpuUs;
    const detail = `signed ${Math.round(r.signed.requestsPerSec)} req/s (p50 ${r.signed.p50Ms} ms, p99 ${r.signed.p99Ms} ms), uWS ${Math.round(r.uws.requestsPerSec)}, Fastify ${Math.round(r.fastify.requestsPerSec)}, ${r.bodyBytes}-byte bodies, errors ${r.signed.errors + r.signed.non2xx}; median of ${r.rounds} alternating round${r.rounds === 1 ? '' : 's'}; server CPU per request (median of the rounds): signed ${us(c.signed)}, uWS ${us(c.uws)}, Fastify ${us(c.fastify)}`;
    row('1 Signed reads', '≥ 0.6 × bare uWS', r2(vsUws), vsUws >= 0.6, detail);
    row('1 Signed reads', '≥ 1.2 × bare Fastify', r2(vsFastify), vsFastify >= 1.2, 'same run');
    const cost = r.signed.requestsPerSec / r.signedNoMetrics.requestsPerSec;
    row(
      '6 Metrics cost',
      'metrics on ÷ off ≥ 0.95',
      r2(cost),
      cost >= 0.95,
      `on ${Math.round(r.signed.requestsPerSec)}, off ${Math.round(r.signedNoMetrics.requestsPerSec)} req/s; CPU per request on ${us(c.signed)}, off ${us(c.signedNoMetrics)}`,
    );
    // Issue 20, items 2 and 3: CPU per request, the figure that holds on any machine; each ratio is
    // the median of the rounds' own ratios (the two targets measured back to back in each round).
    const logCost = r.log.ratio;
    row(
      '20 Access log cost',
      'CPU per request, log on ÷ off ≤ 1.05',
      r2(logCost),
      logCost <= 1.05,
      `one service process under wrk, its log switched on and off every ${LOG_PHASE_MS} ms (log to /dev/null): on ${us(r.log.onUs)}, off ${us(r.log.offUs)}; median of ${r.log.pairs} adjacent phase pairs' ratios`,
    );
    const cpuVsUws = r.pairedCpuRatio('signed', 'uws');
    row(
      '20 Signed reads CPU',
      '≤ 1.67 × bare uWS per request',
      r2(cpuVsUws),
      cpuVsUws <= 1.67,
      "access log on; same run; median of the rounds' ratios",
    );
    const cpuVsFastify = r.pairedCpuRatio('signed', 'fastify');
    row('20 Signed reads CPU', '≤ 0.83 × bare Fastify per request', r2(cpuVsFastify), cpuVsFastify <= 0.83, 'same run');
    save('signed-reads', { ...r, cpuRatios: { logOnOff: logCost, vsUws: cpuVsUws, vsFastify: cpuVsFastify } });
  }
  if (selected('inline')) {
    const r = await benchInline(quick ? 2 : 10, threads, quick);
    // NaN (not met) when a paced run fell behind its schedule: its ratio would describe a queue.
    const ratio = tailRatio(r.at70, r.rate);
    // Without the corpus the blueprint is an example's: rows of their own, never compared with the corpus's.
    const of = r.blueprint.startsWith('examples/') ? ' (examples)' : '';
    row(
      `2 Inline evaluation${of}`,
      'p99 ≤ 3 × p50 at 70% of max',
      r2(ratio),
      ratio <= 3,
      `${r.blueprint} (${r.modules} modules): max ${Math.round(r.max.requestsPerSec)} req/s; at 70%: p50 ${r.at70.p50Ms} ms, p99 ${r.at70.p99Ms} ms, ${Math.round(r.at70.requestsPerSec)} of ${r.rate} req/s`,
    );
    const b = r.withBatches;
    const ratioB = tailRatio(b.at70, r.rate);
    row(
      `20 Inline tail with batch load${of}`,
      'p99 ≤ 3 × p50 at 70% of max, batches beside',
      r2(ratioB),
      ratioB <= 3,
      `same schedule: p50 ${b.at70.p50Ms} ms, p99 ${b.at70.p99Ms} ms, ${Math.round(b.at70.requestsPerSec)} of ${r.rate} req/s; batches of 10 stored scenarios beside it: ${Math.round(b.scenariosPerSec)} scenarios/s`,
    );
    save('inline', r);
  }
  if (selected('isolation')) {
    const r = await benchIsolation(threads, quick ? 60 : 400);
    row(
      '31 Tenant isolation',
      "B's inline p99 while A floods ≤ 2 × (B's p99 alone + one of A's evaluations); B never refused",
      r2(r.ratio),
      r.ratio <= 2 && r.bRefused === 0,
      `B alone p50 ${r.alone.p50Ms} ms, p99 ${r.alone.p99Ms} ms; A's evaluation (${(r.heavyBytes / 1e6).toFixed(2)} MB) ${r.heavyMs} ms; B while A floods (${4 * r.threads} connections) p50 ${r.flooded.p50Ms} ms, p99 ${r.flooded.p99Ms} ms; B refused ${r.bRefused}; A served ${r.aServed}, refused ${r.aRefused}`,
    );
    save('isolation', r);
  }
  if (selected('batches')) {
    const r = await benchBatches(
      quick
        ? {
            curveBatches: 0,
            threadCounts: [],
            smallBatches: 400,
            // The workers' JIT needs thousands of scenarios to settle (40 / 20 batches left the measured
            // window inside it, ~5 × the steady CPU per scenario, while the engine loop beside it was
            // warm); 300 / 80 keep the quick run near 2 minutes and read 10-30% above a full run. The measured
            // batches must outlast a few 500 ms samples of the queue on a quiet machine (200 / 40 did not).
            smallWarmBatches: 300,
            corpusBatches: 100,
            corpusWarmBatches: 80,
            cpuThreads: threads,
            engineMs: 1000,
          }
        : {
            curveBatches: 300,
            threadCounts: [1, 2, 4],
            smallBatches: 1000,
            // Steady state, as the engine loop beside it: one service's CPU per small-fleet scenario
            // in consecutive windows of 300 batches read 1,608, 1,069, 819, 819, 723, 756, 738, 681 µs
            // (the workers' JIT and V8's compiler threads settle after ~6,000 scenarios); the corpus
            // runs on the same service, its own paths warm after ~1,000 scenarios per worker.
            smallWarmBatches: 1000,
            corpusBatches: 300,
            corpusWarmBatches: 200,
            cpuThreads: threads,
            engineMs: 2000,
          },
    );
    // A quick run has no scaling curve: its point is the small fleet's saturated CPU run.
    const small = r.cpu.find((c) => c.set === 'small fleet')!.run;
    const points = r.points.length > 0 ? r.points : [{ threads: r.cpuThreads, scenariosPerSec: small.scenariosPerSec }];
    const best = Math.max(...points.map((p) => p.scenariosPerSec));
    const ratio = best / r.engineSingleThreadPerSec;
    const curve = points
      .map((p) => `${p.threads} worker${p.threads === 1 ? '' : 's'}: ${Math.round(p.scenariosPerSec)}/s`)
      .join(', ');
    row(
      '3 Batches',
      '≥ 1.0 × engine single-thread rate',
      r2(ratio),
      ratio >= 1,
      `engine ${Math.round(r.engineSingleThreadPerSec)} scenarios/s in-process; API ${curve}`,
    );
    // Issue 20, item 4: CPU per scenario (all threads of the service) under saturation.
    for (const c of r.cpu) {
      const limit = c.set === 'corpus' ? 1.3 : 2;
      const x = c.run;
      row(
        `20 Batches CPU (${c.set})`,
        `≤ ${limit} × engine per scenario`,
        r2(c.ratio),
        c.ratio <= limit,
        `service ${us(x.cpuUsPerScenario)} per scenario (all threads, ${r.cpuThreads} workers; main ${us(x.byThread.main)}, workers ${us(x.byThread.workers)}, other threads ${us(x.byThread.other)}), engine ${us(c.engineCpuUs)} (parse + evaluate, one thread); ${c.blueprints} blueprints, ${x.scenarios} scenarios in ${x.seconds.toFixed(1)} s saturated (${Math.round(x.scenariosPerSec)}/s), chunks waiting min ${x.depthMin} / median ${x.depthMedian} / max ${x.depthMax} over ${x.samples} samples, scenarios in flight ≥ ${x.inFlightMin}`,
      );
    }
    if (corpus.skipped.has('batches')) skipRow(CORPUS_ROWS.batches!.rows, 'no corpus');
    save('batches', r);
  }
  if (selected('fleet')) {
    const r = await benchFleet(quick ? 1000 : 10_000, threads);
    const mb = r.maxRssBytes / 2 ** 20;
    row(
      '4 Fleet',
      'RSS < 400 MB',
      `${mb.toFixed(0)} MB`,
      mb < 400,
      `${r.scenarios} scenarios imported in ${r.importSeconds.toFixed(1)} s, evaluated in ${r.evaluateSeconds.toFixed(1)} s`,
    );
    const ratio = r.rollupMsAtAll / r.rollupMsAt100;
    row(
      '4 Fleet',
      `rollup latency at ${r.scenarios} ≤ 1.5 × at 100`,
      r2(ratio),
      ratio <= 1.5,
      `median ${r.rollupMsAt100.toFixed(2)} ms at 100, ${r.rollupMsAtAll.toFixed(2)} ms at ${r.scenarios}`,
    );
    row(
      '4 Fleet',
      'no evaluation left non-terminal',
      String(r.nonTerminal),
      r.nonTerminal === 0 && r.rollupScenariosEvaluated === r.scenarios,
      `rollup counts ${r.rollupScenariosEvaluated} evaluated`,
    );
    const reads = Object.entries(r.console);
    const worst = Math.max(...reads.map(([, l]) => l.maxMs));
    row(
      '18 Console',
      `every console read < 1 s at ${r.scenarios} scenarios`,
      `${worst.toFixed(1)} ms worst`,
      worst < 1000,
      `${reads.map(([name, l]) => `${name} median ${l.medianMs.toFixed(1)} / max ${l.maxMs.toFixed(1)} ms`).join('; ')}; peak RSS with a sign-in ${(r.consolePeakRssBytes / 2 ** 20).toFixed(0)} MB`,
    );
    save('fleet', r);
  }
  if (selected('soak')) {
    const r = await benchSoak(quick ? 6 : 600, threads);
    row(
      '5 Soak',
      'RSS growth after warm-up < 10% (anonymous memory)',
      `${(r.rssGrowth * 100).toFixed(1)}%`,
      r.rssGrowth < 0.1,
      `${r.seconds} s, ${r.requests} requests; heap ${(r.anonAfterWarmupBytes / 2 ** 20).toFixed(0)} → ${(r.anonEndBytes / 2 ** 20).toFixed(0)} MB; total RSS incl. LMDB pages ${(r.rssAfterWarmupBytes / 2 ** 20).toFixed(0)} → ${(r.rssEndBytes / 2 ** 20).toFixed(0)} MB`,
    );
    row('5 Soak', 'zero 5xx', String(r.fiveXx), r.fiveXx === 0, `statuses ${JSON.stringify(r.byStatus)}`);
    row(
      '5 Soak',
      'zero lost evaluations',
      String(r.evaluationsLost),
      r.evaluationsLost === 0,
      `${r.evaluationsSubmitted} batches submitted`,
    );
    save('soak', r);
  }
  if (selected('fuzz-soak')) {
    const r = await benchFuzzSoak(quick ? 6 : fuzzSoakSeconds, quick ? 2 : 30, { POOL_THREADS: String(threads) });
    const mb = (x: number) => (x / 2 ** 20).toFixed(0);
    row(
      'Fuzz soak (issue 13)',
      'RSS growth after warm-up < 10% (anonymous memory)',
      `${(r.rssGrowth * 100).toFixed(1)}%`,
      r.rssGrowth < 0.1,
      `${r.seconds} s, ${r.requests} fuzz requests (${mb(r.bytesSent)} MB of bodies); anonymous ${mb(r.anonAfterWarmupBytes)} → ${mb(r.anonEndBytes)} MB; total RSS ${mb(r.rssAfterWarmupBytes)} → ${mb(r.rssEndBytes)} MB (${(r.rssTotalGrowth * 100).toFixed(1)}%), peak ${mb(r.rssPeakBytes)} MB; before traffic ${mb(r.rssStartBytes)} MB (anonymous ${mb(r.anonStartBytes)}), after ${r.idleSeconds} s idle ${mb(r.rssIdleBytes)} MB (anonymous ${mb(r.anonIdleBytes)})`,
    );
    row('Fuzz soak (issue 13)', 'zero 5xx', String(r.fiveXx), r.fiveXx === 0, `statuses ${JSON.stringify(r.byStatus)}`);
    save('fuzz-soak', r);
  }
  if (selected('cluster') && (!wrkAvailable() || !redisAvailable())) {
    const missing = wrkAvailable() ? 'redis-server (scripts/ensure-redis.sh failed)' : 'wrk';
    process.stdout.write(`SKIP 16 Cluster: ${missing} unavailable\n`);
    skipRow('16 Cluster', `${missing} unavailable`);
  } else if (selected('cluster')) {
    const r = await benchCluster(
      quick
        ? { readSeconds: 1, rounds: 1, batches: 10, maxNodes: 1 }
        : { readSeconds: 5, rounds: 5, batchRounds: 3, batches: 300 },
    );
    const lmdb = r.points.find((p) => p.name === 'lmdb')!;
    const one = r.points.find((p) => p.name === 'redis-1')!;
    const shared = `2 cores shared by the nodes, redis-server and the load generator: compare CPU per request or scenario, not throughput`;
    const cpuRatio = one.reads.cpuUsPerRequest / lmdb.reads.cpuUsPerRequest;
    row(
      '16 Cluster reads',
      'Redis 1 node CPU per signed read ≤ 1.5 × LMDB',
      r2(cpuRatio),
      cpuRatio <= 1.5,
      `${readsDetail(r)}; wrk per node (${r.connections} connections split), median of ${r.rounds} round${r.rounds === 1 ? '' : 's'} of ${r.readSeconds} s; ${shared}`,
    );
    const tputRatio = one.batches.scenariosPerSec / lmdb.batches.scenariosPerSec;
    row(
      '16 Cluster batches',
      'Redis 1 node stored batches ≥ 0.7 × LMDB scenarios/s',
      r2(tputRatio),
      tputRatio >= 0.7,
      `${batchesDetail(r)}; median of ${r.batchRounds} round${r.batchRounds === 1 ? '' : 's'} of ${r.batches} batches of 10 (after as many for warm-up); ${shared}`,
    );
    process.stdout.write(`\n${clusterTables(r)}\n\n`);
    save('cluster', r);
  }
  if (selected('scan-sarif') && corpus.skipped.has('scan-sarif')) skipRow(CORPUS_ROWS['scan-sarif']!.rows, 'no corpus');
  else if (selected('scan-sarif')) {
    const r = await benchScanSarif(quick ? 1 : 3);
    const mb = (x: number) => (x / 2 ** 20).toFixed(0);
    const s = (ms: number) => (ms / 1000).toFixed(2);
    const detail = `${r.files} files (${mb(r.bytes)} MB, the 75 corpus blueprints copied), SARIF ${mb(r.sarifBytes)} MB; CPU ${s(r.sarif.cpuMs)} s; table format of the same files ${s(r.table.wallMs)} s wall, ${s(r.table.cpuMs)} s CPU, ${mb(r.table.maxRssBytes)} MB; median of ${r.rounds.sarif.length} round${r.rounds.sarif.length === 1 ? '' : 's'}`;
    row('19 gov scan SARIF', '1,020 files < 5 s', `${s(r.sarif.wallMs)} s`, r.sarif.wallMs < 5000, detail);
    row(
      '19 gov scan SARIF',
      '1,020 files max RSS < 200 MB',
      `${mb(r.sarif.maxRssBytes)} MB`,
      r.sarif.maxRssBytes < 200 * 2 ** 20,
      'same run',
    );
    const ratio = r.sarif.cpuMs / r.table.cpuMs;
    row(
      '19 gov scan SARIF',
      'SARIF CPU ÷ table CPU ≤ 1.5',
      r2(ratio),
      ratio <= 1.5,
      'regions and the log cost at most half the scan itself',
    );
    save('scan-sarif', r);
  }
  const lastLap = laps[laps.length - 1];
  if (lastLap) lastLap.ms = performance.now() - lastLap.startMs;
  process.stdout.write(
    `\nTook ${((performance.now() - runStartMs) / 1000).toFixed(0)} s: ${laps.map((l) => `${l.name} ${((l.ms ?? 0) / 1000).toFixed(0)} s`).join(', ')}\n`,
  );
  const table = ['| scenario | target | measured | met | detail |', '|---|---|---|---|---|', ...rows].join('\n');
  process.stdout.write(`\n${table}\n`);
  // Beside the newest previous run of the same mode (read before this run wrote its results).
  const report = comparisonReport(runRows, previous, quick);
  process.stdout.write(`\n${report.map((l) => `${l}\n`).join('')}`);
  const committed = existsSync(`${ROOT}docs/performance.md`) ? readFileSync(`${ROOT}docs/performance.md`, 'utf8') : '';
  if (all && !quick && skippedRows > 0)
    process.stdout.write(`docs/performance.md not rewritten: ${skippedRows} row(s) skipped in this run\n`);
  else if (all && !quick) {
    writeFileSync(
      `${ROOT}docs/performance.md`,
      `# Performance\n\nLatest full run of \`npm run bench\` (${new Date().toISOString()}), on ${machine}.\n` +
        `Method: docs/benchmarks.md. Each target is a ratio measured in the same run; absolute figures are beside it.\n\n${table}\n` +
        // The profile tables of bench/profile (issue 20) are kept: they are measured by another command.
        (keptSection(committed) === '' ? '' : `\n${keptSection(committed)}\n`),
    );
    process.stdout.write('wrote docs/performance.md\n');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
