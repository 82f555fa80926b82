/**
 * @module bench/profile-reads: `node dist/bench/profile-reads.js [seconds]` (default 10). Where a
 * signed read's CPU goes, LMDB against cluster mode: an LMDB node and a 1-node cluster on a
 * throw-away redis-server, both as in the cluster benchmark (defaults, access log on), each under
 * wrk (64 connections) for `seconds` with `node --cpu-prof`; then the top functions by self time of
 * each profile (main thread only) and the CPU per request. Profiles are kept in
 * bench/results/profiles/ (open them in Chrome DevTools).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GovernanceClient, pollEvaluation } from '../src/client/client.js';
import type { Ok, SubmitResult } from '../src/client/responses.js';
import { variant } from '../src/fleet/variants.js';
import { removeAtExit } from './lib/cleanup.js';
import { startService, type Child } from './lib/processes.js';
import { startBenchRedis, type BenchRedis } from './lib/redis-server.js';
import { prepare, prepareRedis } from './lib/setup.js';
import { runWrk } from './lib/wrk.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const seconds = Number(process.argv[2] ?? 10);

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
function topSelf(profile: Profile, count: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const cats = new Map<string, number>();
  let total = 0;
  let idle = 0;
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
  const busy = total - idle;
  const share = (t: number) => `${((t / busy) * 100).toFixed(1).padStart(5)}%`;
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return [
    `busy ${((busy / total) * 100).toFixed(1)}% of ${(total / 1e6).toFixed(1)} s sampled (start-up and warm-up included)`,
    'by category:',
    ...sorted(cats).map(([k, t]) => `${share(t)}  ${k}`),
    'by function:',
    ...sorted(self)
      .slice(0, count)
      .map(([k, t]) => `${share(t)}  ${k}`),
  ];
}

/** User and system CPU seconds per thread name of process `pid` (/proc/<pid>/task/<tid>/stat; 100 ticks per second). */
function threadCpu(pid: number): Map<string, { user: number; system: number }> {
  const out = new Map<string, { user: number; system: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const t = out.get(name) ?? { user: 0, system: 0 };
      out.set(name, { user: t.user + Number(fields[11]) / 100, system: t.system + Number(fields[12]) / 100 });
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
    .filter((t) => t.user + t.system > 0.05)
    .sort((x, y) => y.user + y.system - (x.user + x.system))
    .map((t) => `${t.name} ${t.user.toFixed(1)} user + ${t.system.toFixed(1)} system`)
    .join(', ');
}

async function readPathOf(node: Child, credentials: { apiKey: string; signingSecret: string }): Promise<string> {
  const client = new GovernanceClient(node.url, credentials);
  const submit = await client.call<Ok<SubmitResult>>('POST', '/evaluate', { scenario_ids: ['r1'] });
  await pollEvaluation(client, submit.body.data.evaluation_id, { delaysMs: [50], timeoutMs: 30_000 });
  return `/api/public/v1/evaluations/${submit.body.data.evaluation_id}`;
}

async function main(): Promise<void> {
  const out = join(ROOT, 'bench', 'results', 'profiles');
  mkdirSync(out, { recursive: true });
  const scenarios: [string, string][] = [['r1', JSON.stringify(variant(1))]];
  const dirs: string[] = [];
  const children: Child[] = [];
  let redis: BenchRedis | undefined;
  try {
    const p = await prepare(scenarios);
    dirs.push(removeAtExit(p.dataDir));
    redis = await startBenchRedis();
    const secrets = {
      GOV_KEY_PEPPER: randomBytes(32).toString('hex'),
      GOV_MASTER_KEY: randomBytes(32).toString('hex'),
    };
    const pr = await prepareRedis(redis.url, 'bench:', secrets, scenarios);
    const nodeDir = removeAtExit(mkdtempSync(join(tmpdir(), 'gov-bench-node-')));
    dirs.push(nodeDir);
    const targets = [
      { name: 'lmdb', dataDir: p.dataDir, env: {}, credentials: p.credentials },
      {
        name: 'redis',
        dataDir: nodeDir,
        env: { ...secrets, STORE: 'redis', REDIS_URL: redis.url, REDIS_PREFIX: 'bench:' },
        credentials: pr.credentials,
      },
    ];
    for (const t of targets) {
      const dir = join(out, `${new Date().toISOString().replace(/[:.]/g, '-')}-${t.name}`);
      const node = await startService(t.dataDir, { LOG_LEVEL: 'info', ...t.env }, [
        '--cpu-prof',
        `--cpu-prof-dir=${dir}`,
      ]);
      children.push(node);
      const path = await readPathOf(node, t.credentials);
      const load = { url: node.url, path, credentials: t.credentials, connections: 64 };
      await runWrk({ ...load, durationS: 2, uniqueRequests: 100_000 }); // JIT warm-up (profiled too)
      const cpu0 = node.cpuSeconds();
      const threads0 = threadCpu(node.child.pid!);
      const redis0 = redis.cpuSeconds();
      const r = await runWrk({ ...load, durationS: seconds, uniqueRequests: seconds * 160_000 });
      const cpuUs = ((node.cpuSeconds() - cpu0) * 1e6) / Math.max(1, r.total);
      const threads = threadCost(threads0, threadCpu(node.child.pid!), Math.max(1, r.total));
      const redisUs = ((redis.cpuSeconds() - redis0) * 1e6) / Math.max(1, r.total);
      await node.stop(); // SIGTERM: the service exits itself, so V8 writes the profile
      const main = readdirSync(dir)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(dir, f))
        .sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0];
      process.stdout.write(
        `\n== ${t.name}: ${Math.round(r.requestsPerSec)} req/s, ${cpuUs.toFixed(1)} µs CPU per request (whole process; by thread, µs: ${threads}); redis-server ${redisUs.toFixed(1)} µs; profile ${main}\n`,
      );
      if (main) process.stdout.write(`${topSelf(JSON.parse(readFileSync(main, 'utf8')) as Profile, 30).join('\n')}\n`);
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
