/**
 * @module bench/profile: `node dist/bench/profile.js <reads|batches|inline> [--seconds N]
 * [--store redis] [--write <label>]` (issue 20, item 1). Where the server's CPU goes, by component.
 *
 * Starts the service in its default configuration (access log on) under `node --cpu-prof` (main
 * thread and every worker thread), loads it, and charges the samples taken during the measured
 * window to components (bench/lib/profile-components). Loads:
 * - `reads`: signed `GET /evaluations/{id}` by wrk, 64 connections, `--seconds` (default 8).
 * - `batches`: stored-id batches of 10 from 16 submitters, queue kept non-empty; `--seconds` is the
 *   number of batches / 10 (default 30 → 300 batches), after as many for warm-up.
 * - `inline`: `POST /evaluate/inline` of the median corpus blueprint: the maximum rate (closed loop,
 *   3 s), then 70% of it on a fixed schedule for `--seconds` (default 8), the measured window.
 * Prints a Markdown table: µs per request (or per scenario) by component for the main thread (its
 * share of the sampled time × its CPU from /proc) and the worker threads (sampled time), and the
 * threads the profiler does not see (V8's GC helpers, LMDB's write thread, libuv) as the rest of the
 * process's CPU. `--write <label>` also puts the table into docs/performance.md between
 * `<!-- profile:<mode>:<label> -->` markers (added under "Where the time goes" when missing).
 * Profiles stay in bench/results/profiles/ (Chrome DevTools opens them).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GovernanceClient } from '@gov/sdk';
import { variant } from '../src/fleet/variants.js';
import { removeAtExit } from './lib/cleanup.js';
import { startService, type Child } from './lib/processes.js';
import {
  addTimes,
  componentTimes,
  COMPONENTS,
  perUnit,
  type ComponentTimes,
  type Profile,
} from './lib/profile-components.js';
import { replaceProfileBlock } from './lib/profile-doc.js';
import { startBenchRedis, type BenchRedis } from './lib/redis-server.js';
import { prepare, prepareRedis } from './lib/setup.js';
import { prepareWrk, runWrk } from './lib/wrk.js';
import { batchBlueprints, warmAndMeasure } from './scenarios/batches.js';
import { medianBlueprint } from './scenarios/inline.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const mode = (['reads', 'batches', 'inline'] as const).find((m) => m === args[0]);
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const seconds = Number(option('seconds') ?? (mode === 'batches' ? 30 : 8));
const redisMode = option('store') === 'redis';
const label = option('write');

/** CLOCK_MONOTONIC in µs: the clock of the profiles' timestamps. */
const monoUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** CPU seconds (user + system) of the main thread of `pid`, from /proc. */
function mainThreadCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The measured window: monotonic µs bounds, units done, CPU of the process and its main thread. */
interface Window {
  fromUs: number;
  toUs: number;
  units: number;
  cpuS: number;
  mainS: number;
  summary: string;
}

/** Opens a measured window on `node`; the returned function closes it with the units done. */
function openWindow(node: Child): (units: number, summary: string) => Window {
  const pid = node.child.pid!;
  const cpu0 = node.cpuSeconds();
  const main0 = mainThreadCpu(pid);
  const fromUs = monoUs();
  return (units, summary) => ({
    fromUs,
    toUs: monoUs(),
    units: Math.max(1, units),
    cpuS: node.cpuSeconds() - cpu0,
    mainS: mainThreadCpu(pid) - main0,
    summary,
  });
}

/** Runs `work` as the measured window of `node`. */
async function measured(node: Child, work: () => Promise<{ units: number; summary: string }>): Promise<Window> {
  const close = openWindow(node);
  const r = await work();
  return close(r.units, r.summary);
}

/** Loads `node` as `mode` says and returns the measured window. */
async function load(node: Child, credentials: { apiKey: string; signingSecret: string }): Promise<Window> {
  const client = new GovernanceClient({ baseUrl: node.url, ...credentials });
  if (mode === 'reads') {
    const submitted = (await client.submitEvaluation({ scenario_ids: ['r1'] })).data;
    await client.waitForEvaluation(submitted, { intervalsMs: [50], timeoutMs: 30_000 });
    const path = `/api/public/v1/evaluations/${submitted.evaluation_id}`;
    const o = { url: node.url, path, credentials, connections: 64 };
    await runWrk({ ...o, durationS: 3, uniqueRequests: 150_000 }); // JIT warm-up
    const wrk = prepareWrk({ ...o, durationS: seconds, uniqueRequests: seconds * 160_000 });
    try {
      return await measured(node, async () => {
        const r = await wrk.run();
        return { units: r.total, summary: `${Math.round(r.requestsPerSec)} req/s, p99 ${r.p99Ms} ms` };
      });
    } finally {
      wrk.dispose();
    }
  }
  if (mode === 'inline') {
    const bp = medianBlueprint();
    const base = {
      url: node.url,
      method: 'POST' as const,
      path: '/api/public/v1/evaluate/inline',
      body: `{"blueprint":${bp.text}}`,
      credentials,
    };
    await runWrk({ ...base, connections: 8, durationS: 2, uniqueRequests: 10_000 });
    const max = await runWrk({ ...base, connections: 16, durationS: 3, uniqueRequests: 15_000 });
    const rate = Math.max(1, Math.floor(max.requestsPerSec * 0.7));
    const wrk = prepareWrk({
      ...base,
      connections: 64,
      durationS: seconds,
      uniqueRequests: seconds * rate + 1_000,
      rate,
    });
    try {
      return await measured(node, async () => {
        const r = await wrk.run();
        return {
          units: r.total,
          summary: `${bp.file}: max ${Math.round(max.requestsPerSec)} req/s; at 70%: ${Math.round(r.requestsPerSec)} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms`,
        };
      });
    } finally {
      wrk.dispose();
    }
  }
  // Batches: the window opens after the warm-up batches completed and closes with the last measured one.
  const batches = Math.max(10, seconds * 10);
  let close = openWindow(node);
  const span = await warmAndMeasure([client], batches, {}, { beforeMeasure: () => void (close = openWindow(node)) });
  const s = (span.lastMs - span.firstMs) / 1000;
  return close(
    span.scenarios,
    `${batches} batches of 10 stored scenarios: ${Math.round(span.scenarios / s)} scenarios/s`,
  );
}

/** The profiles V8 wrote for process `pid` in `dir`: the main thread's and the workers'. */
function readProfiles(dir: string, pid: number): { main: Profile[]; workers: Profile[] } {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const read = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Profile;
  // V8 names them CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile; thread 0 is the main thread.
  return {
    main: files.filter((f) => f.includes(`.${pid}.0.`)).map(read),
    workers: files.filter((f) => !f.includes(`.${pid}.0.`)).map(read),
  };
}

/** The Markdown table of one profiled run. */
function table(w: Window, main: ComponentTimes, workers: ComponentTimes, unit: string, title: string): string {
  const mainUs = (w.mainS * 1e6) / w.units;
  const totalUs = (w.cpuS * 1e6) / w.units;
  // Sampled time is wall time: a worker descheduled on a busy machine keeps being sampled, so the
  // workers' column is capped at what the process used beyond its main thread.
  const workersUs = Math.min(workers.busyUs / w.units, Math.max(0, totalUs - mainUs));
  const restUs = Math.max(0, totalUs - mainUs - workersUs);
  const m = perUnit(main, mainUs);
  const wk = perUnit(workers, workersUs);
  const f = (x: number) => (x >= 0.05 ? x.toFixed(1) : '·');
  const lines = [
    `${title}: ${w.summary}; ${totalUs.toFixed(1)} µs of server CPU per ${unit} (${new Date().toISOString().slice(0, 10)}, ${w.units} ${unit}s measured).`,
    '',
    `| component | main thread, µs per ${unit} | worker threads, µs per ${unit} |`,
    '|---|---|---|',
  ];
  for (const c of COMPONENTS) {
    const a = m.get(c) ?? 0;
    const b = wk.get(c) ?? 0;
    if (a >= 0.05 || b >= 0.05) lines.push(`| ${c} | ${f(a)} | ${f(b)} |`);
  }
  lines.push(`| **total (profiled threads)** | **${f(mainUs)}** | **${f(workersUs)}** |`);
  lines.push(
    `| other threads (V8 GC helpers and the profiler’s own, LMDB’s write thread, libuv; not profiled) | ${f(restUs)} | |`,
  );
  return lines.join('\n');
}

async function main(): Promise<void> {
  if (!mode) throw new Error('usage: profile <reads|batches|inline> [--seconds N] [--store redis] [--write <label>]');
  const out = join(ROOT, 'bench', 'results', 'profiles');
  mkdirSync(out, { recursive: true });
  const scenarios: [string, string][] =
    mode === 'batches'
      ? batchBlueprints().map((t, i) => [`b${i}`, t] as [string, string])
      : [['r1', JSON.stringify(variant(1))]];
  const env: Record<string, string> = {
    POOL_MAX_QUEUE: '100000',
    EVALUATION_TIMEOUT_MS: '600000',
  };
  const dirs: string[] = [];
  let node: Child | undefined;
  let redis: BenchRedis | undefined;
  try {
    let credentials: { apiKey: string; signingSecret: string };
    let dataDir: string;
    if (redisMode) {
      redis = await startBenchRedis();
      const secrets = {
        GOV_KEY_PEPPER: randomBytes(32).toString('hex'),
        GOV_MASTER_KEY: randomBytes(32).toString('hex'),
      };
      credentials = (await prepareRedis(redis.url, 'bench:', secrets, scenarios)).credentials;
      Object.assign(env, secrets, { STORE: 'redis', REDIS_URL: redis.url, REDIS_PREFIX: 'bench:' });
      dataDir = removeAtExit((await prepare([])).dataDir);
    } else {
      const p = await prepare(scenarios);
      credentials = p.credentials;
      dataDir = removeAtExit(p.dataDir);
    }
    dirs.push(dataDir);
    const dir = join(out, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mode}-${redisMode ? 'redis' : 'lmdb'}`);
    node = await startService(dataDir, env, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    const pid = node.child.pid!;
    const w = await load(node, credentials);
    await node.stop(); // SIGTERM: the service exits by itself, so V8 writes the profiles
    node = undefined;
    const profiles = readProfiles(dir, pid);
    const mainTimes = addTimes(profiles.main.map((p) => componentTimes(p, w.fromUs, w.toUs)));
    const workerTimes = addTimes(profiles.workers.map((p) => componentTimes(p, w.fromUs, w.toUs)));
    if (mainTimes.busyUs === 0) throw new Error('no main-thread samples inside the measured window (clock mismatch?)');
    const unit = mode === 'batches' ? 'scenario' : 'request';
    const title = { reads: 'Signed read', batches: 'Batches (saturated)', inline: 'Inline at 70%' }[mode];
    const text = table(w, mainTimes, workerTimes, unit, `${title}, ${redisMode ? 'cluster mode (Redis)' : 'LMDB'}`);
    process.stdout.write(`${text}\n\nprofiles: ${dir}\n`);
    if (label !== undefined) {
      const doc = join(ROOT, 'docs', 'performance.md');
      const key = `${mode}${redisMode ? '-redis' : ''}:${label}`;
      writeFileSync(doc, replaceProfileBlock(existsSync(doc) ? readFileSync(doc, 'utf8') : '', key, text));
      process.stdout.write(`wrote the table to docs/performance.md (${key})\n`);
    }
  } finally {
    await node?.stop();
    await redis?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`profile failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
