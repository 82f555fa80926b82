/**
 * @module bench/profile-cluster: `node dist/bench/profile-cluster.js [reads [seconds] | batches
 * [batches]]` (default reads for 10 s; batches: 300). Where the CPU goes, LMDB against cluster mode:
 * an LMDB node and a 1-node cluster on a throw-away redis-server, both as in the cluster benchmark
 * (defaults, access log on), run with `node --cpu-prof`, each under the load of the cluster
 * benchmark: signed reads by wrk (64 connections), or saturated stored batches of 10 (after as many
 * for warm-up). Prints the CPU per request or scenario by thread (user, system) and redis-server's,
 * and the self time of the main thread's profile (and, for batches, of the workers' together) by
 * category and by function. Profiles are kept in bench/results/profiles/ (Chrome DevTools opens them).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GovernanceClient } from '@gov/sdk';
import { variant } from '../src/fleet/variants.js';
import { removeAtExit } from './lib/cleanup.js';
import { startService, type Child } from './lib/processes.js';
import { startBenchRedis, type BenchRedis } from './lib/redis-server.js';
import { prepare, prepareRedis } from './lib/setup.js';
import { runWrk } from './lib/wrk.js';
import { batchBlueprints, warmAndMeasure } from './scenarios/batches.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const mode = process.argv[2] === 'batches' ? 'batches' : 'reads';
/** Seconds of reads, or measured batches. */
const amount = Number(process.argv[3] ?? (mode === 'reads' ? 10 : 300));

/** A node of a V8 CPU profile (the fields used here). */
interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

/** A `.cpuprofile` file (the fields used here; times in µs). */
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Where a frame's code lives, coarsely: the library or the part of the service. */
function category(name: string, url: string): string {
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(program)' || name === '(idle)' || (url === '' && name !== '(anonymous)')) return `native: ${name}`;
  if (url === '') return 'native (uWS callbacks, builtins)';
  const lib = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (lib) {
    const pkg = lib[1]!;
    if (['pino', 'sonic-boom', 'atomic-sleep', 'thread-stream', 'fast-redact', 'quick-format-unescaped'].includes(pkg))
      return 'access log (pino)';
    if (['ioredis', 'redis-parser', 'denque', 'cluster-key-slot', 'standard-as-callback', 'redis-errors'].includes(pkg))
      return 'ioredis';
    return pkg;
  }
  const src = /dist\/src\/(.*)$/.exec(url);
  if (src) {
    const file = src[1]!;
    if (file.startsWith('store/')) return `service: ${file.split('/').slice(0, 2).join('/')}`;
    if (file.startsWith('server/auth/') || file.includes('signature')) return 'service: signature and key';
    if (file.includes('metrics')) return 'service: metrics';
    if (file.startsWith('server/uws/')) return 'service: uWS adapter and response';
    return 'service: other';
  }
  return url.startsWith('node:') ? 'node: built-in modules' : 'other';
}

/** Self time by category and by function (name, file and line), as shares of the busy samples, highest first. */
function topSelf(profiles: readonly Profile[], count: number): string[] {
  const self = new Map<string, number>();
  const cats = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const n = byId.get(id);
      const dt = profile.timeDeltas[i] ?? 0;
      if (!n) return;
      const f = n.callFrame;
      total += dt;
      if (f.functionName === '(idle)') {
        idle += dt;
        return;
      }
      const file = f.url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, '$1/');
      const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
      self.set(key, (self.get(key) ?? 0) + dt);
      const c = category(f.functionName, f.url);
      cats.set(c, (cats.get(c) ?? 0) + dt);
    });
  }
  const busy = total - idle;
  const share = (t: number) => `${((t / busy) * 100).toFixed(1).padStart(5)}%`;
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return [
    `busy ${((busy / total) * 100).toFixed(1)}% of ${(total / 1e6).toFixed(1)} s sampled (start-up and warm-up included)`,
    'by category:',
    ...sorted(cats)
      .filter(([, t]) => t / busy >= 0.003)
      .map(([k, t]) => `${share(t)}  ${k}`),
    'by function:',
    ...sorted(self)
      .slice(0, count)
      .map(([k, t]) => `${share(t)}  ${k}`),
  ];
}

/**
 * User and system CPU seconds per thread of process `pid` (/proc/<pid>/task/<tid>/stat; 100 ticks
 * per second), keyed `main` or `<name>/<tid>` (Node's workers are all named `node`).
 */
function threadCpu(pid: number): Map<string, { user: number; system: number }> {
  const out = new Map<string, { user: number; system: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = Number(tid) === pid ? 'main' : `${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}/${tid}`;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(name, { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 });
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** Per-thread-name CPU between two readings, in µs per request, "name user+system". */
function threadCost(
  a: Map<string, { user: number; system: number }>,
  b: Map<string, { user: number; system: number }>,
  requests: number,
): string {
  return [...b.entries()]
    .map(([name, t]) => {
      const t0 = a.get(name) ?? { user: 0, system: 0 };
      return { name, user: ((t.user - t0.user) * 1e6) / requests, system: ((t.system - t0.system) * 1e6) / requests };
    })
    .filter((t) => t.user + t.system > 0.05 * (requests > 100_000 ? 1 : 20))
    .sort((x, y) => y.user + y.system - (x.user + x.system))
    .map((t) => `${t.name} ${t.user.toFixed(1)} user + ${t.system.toFixed(1)} system`)
    .join(', ');
}

async function readPathOf(node: Child, credentials: { apiKey: string; signingSecret: string }): Promise<string> {
  const client = new GovernanceClient({ baseUrl: node.url, ...credentials });
  const submitted = (await client.submitEvaluation({ scenario_ids: ['r1'] })).data;
  await client.waitForEvaluation(submitted, { intervalsMs: [50], timeoutMs: 30_000 });
  return `/api/public/v1/evaluations/${submitted.evaluation_id}`;
}

/** Runs the load on `node` with its readings around the measured part; returns the units done and a summary. */
async function load(
  node: Child,
  credentials: { apiKey: string; signingSecret: string },
  around: { before(): void },
): Promise<{ units: number; summary: string }> {
  if (mode === 'reads') {
    const path = await readPathOf(node, credentials);
    const o = { url: node.url, path, credentials, connections: 64 };
    await runWrk({ ...o, durationS: 2, uniqueRequests: 100_000 }); // JIT warm-up (profiled too)
    around.before();
    const r = await runWrk({ ...o, durationS: amount, uniqueRequests: amount * 160_000 });
    return { units: r.total, summary: `${Math.round(r.requestsPerSec)} req/s` };
  }
  const span = await warmAndMeasure(
    [new GovernanceClient({ baseUrl: node.url, ...credentials })],
    amount,
    {},
    {
      beforeMeasure: () => around.before(),
    },
  );
  const seconds = (span.lastMs - span.firstMs) / 1000;
  return { units: span.scenarios, summary: `${Math.round(span.scenarios / seconds)} scenarios/s` };
}

/** Self-time summaries of the profiles in `dir` of process `pid`: its main thread's, and the other threads' merged. */
function summaries(dir: string, pid: number): string[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  // V8 names them CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile; thread 0 is the main thread.
  const main = files.filter((f) => f.includes(`.${pid}.0.`));
  const workers = files.filter((f) => !f.includes(`.${pid}.0.`));
  const read = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Profile;
  const out = main.flatMap((f) => [`main thread (${join(dir, f)}):`, ...topSelf([read(f)], 25)]);
  if (mode === 'batches' && workers.length > 0)
    out.push(`${workers.length} worker threads together:`, ...topSelf(workers.map(read), 15));
  return out;
}

async function main(): Promise<void> {
  const out = join(ROOT, 'bench', 'results', 'profiles');
  mkdirSync(out, { recursive: true });
  const scenarios: [string, string][] =
    mode === 'reads'
      ? [['r1', JSON.stringify(variant(1))]]
      : batchBlueprints().map((t, i) => [`b${i}`, t] as [string, string]);
  const env = { LOG_LEVEL: 'info', POOL_MAX_QUEUE: String(amount * 10 + 10), EVALUATION_TIMEOUT_MS: '600000' };
  const dirs: string[] = [];
  const children: Child[] = [];
  let redis: BenchRedis | undefined;
  try {
    const p = await prepare(scenarios);
    dirs.push(removeAtExit(p.dataDir));
    const r = await startBenchRedis();
    redis = r;
    const secrets = {
      GOV_KEY_PEPPER: randomBytes(32).toString('hex'),
      GOV_MASTER_KEY: randomBytes(32).toString('hex'),
    };
    const pr = await prepareRedis(r.url, 'bench:', secrets, scenarios);
    const nodeDir = removeAtExit(mkdtempSync(join(tmpdir(), 'gov-bench-node-')));
    dirs.push(nodeDir);
    const targets = [
      { name: 'lmdb', dataDir: p.dataDir, env, credentials: p.credentials },
      {
        name: 'redis',
        dataDir: nodeDir,
        env: { ...env, ...secrets, STORE: 'redis', REDIS_URL: r.url, REDIS_PREFIX: 'bench:' },
        credentials: pr.credentials,
      },
    ];
    for (const t of targets) {
      const dir = join(out, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mode}-${t.name}`);
      const node = await startService(t.dataDir, t.env, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
      children.push(node);
      const pid = node.child.pid!;
      let cpu0 = 0;
      let threads0 = new Map<string, { user: number; system: number }>();
      let redis0 = 0;
      const res = await load(node, t.credentials, {
        before: () => {
          cpu0 = node.cpuSeconds();
          threads0 = threadCpu(pid);
          redis0 = r.cpuSeconds();
        },
      });
      const units = Math.max(1, res.units);
      const cpuUs = ((node.cpuSeconds() - cpu0) * 1e6) / units;
      const threads = threadCost(threads0, threadCpu(pid), units);
      const redisUs = ((r.cpuSeconds() - redis0) * 1e6) / units;
      await node.stop(); // SIGTERM: the service exits itself, so V8 writes the profiles
      const unit = mode === 'reads' ? 'request' : 'scenario';
      process.stdout.write(
        `\n== ${t.name}: ${res.summary}, ${cpuUs.toFixed(1)} µs CPU per ${unit} (whole process; by thread, µs: ${threads}); redis-server ${redisUs.toFixed(1)} µs per ${unit}\n`,
      );
      process.stdout.write(`${summaries(dir, pid).join('\n')}\n`);
    }
  } finally {
    for (const c of children) await c.stop();
    await redis?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`profile failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
