/**
 * @module bench/lib/redis-server: a throw-away `redis-server` for the cluster benchmark, set up as
 * the service requires (AOF with `appendfsync everysec`, `noeviction`, no RDB snapshots) on a free
 * loopback port (never 6379) with a fresh temporary directory; and its counters (`INFO`) and CPU
 * time (/proc), read before and after a measured interval. The same approach as the tests'
 * helper (test/helpers/redis-server.ts), which the bench does not import.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { forget, killAtExit, removeAtExit } from './cleanup.js';
import { procCpuSeconds } from './processes.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Counters of one Redis server at one moment. */
export interface RedisCounters {
  /** `total_commands_processed` (INFO stats): commands executed, each command inside a pipeline counted. */
  readonly commands: number;
  /** `total_reads_processed` (INFO stats): read events on client sockets, about one per pipelined round trip. */
  readonly reads: number;
  /** Calls per command name (`INFO commandstats`), lower-case; scripts' inner commands are counted too. */
  readonly byCommand: Readonly<Record<string, number>>;
  /** CPU time of the redis-server process (user + system, all threads, /proc), in seconds. */
  readonly cpuSeconds: number;
}

/** A running throw-away server. */
export interface BenchRedis {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly pid: number;
  /** Reads the counters (over one extra connection: its own INFO commands are one or two per reading). */
  counters(): Promise<RedisCounters>;
  /** CPU time of the redis-server process so far (user + system, /proc), in seconds. */
  cpuSeconds(): number;
  /** SHUTDOWN NOSAVE (SIGKILL after 5 s), then removes the directory. Idempotent. */
  stop(): Promise<void>;
}

/** Finds a free loopback port by listening on port 0; never 6379 (a developer's own Redis). */
async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((done, fail) => {
      const server = createServer();
      server.once('error', fail);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        const p = typeof address === 'object' && address !== null ? address.port : 0;
        server.close(() => done(p));
      });
    });
    if (port !== 6379 && port !== 0) return port;
  }
}

/** Runs scripts/ensure-redis.sh when `redis-server` is not on PATH. @throws Error when it cannot be installed. */
function ensureRedisInstalled(): void {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0) return;
  const run = spawnSync('bash', [join(ROOT, 'scripts', 'ensure-redis.sh')], { encoding: 'utf8' });
  if (run.status !== 0)
    throw new Error(`redis-server is missing and could not be installed: ${run.stdout}${run.stderr}`);
}

/** True when `redis-server` is installed, or scripts/ensure-redis.sh could install it. */
export function redisAvailable(): boolean {
  try {
    ensureRedisInstalled();
    return true;
  } catch {
    return false;
  }
}

/** Parses `name:value` lines of an INFO section into numbers. */
function infoNumbers(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) out.set(line.slice(0, colon), Number(line.slice(colon + 1)));
  }
  return out;
}

/** Calls per command from `INFO commandstats` (`cmdstat_hget:calls=12,usec=...`). */
function commandCalls(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) out[m[1]!] = Number(m[2]);
  return out;
}

/**
 * Starts `redis-server` (installing it with scripts/ensure-redis.sh when missing) and waits until
 * it answers PING (up to 10 s).
 * @throws Error when it cannot be installed, exits early or does not answer.
 */
export async function startBenchRedis(): Promise<BenchRedis> {
  ensureRedisInstalled();
  const port = await freePort();
  const dir = removeAtExit(mkdtempSync(join(tmpdir(), 'gov-bench-redis-')));
  const child = spawn(
    'redis-server',
    [
      ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--daemonize', 'no', '--save', ''],
      ...['--appendonly', 'yes', '--appendfsync', 'everysec', '--maxmemory-policy', 'noeviction'],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  killAtExit(child);
  let log = '';
  const keep = (c: Buffer) => {
    log = (log + c.toString('utf8')).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const client = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined); // surfaces as rejected commands
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    client.disconnect();
    if (child.exitCode === null && child.signalCode === null) {
      const admin = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, maxRetriesPerRequest: 0 });
      admin.on('error', () => undefined);
      await admin
        .connect()
        .then(() => admin.call('SHUTDOWN', 'NOSAVE'))
        .catch(() => undefined); // the connection closes as the server exits
      admin.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
    forget(dir);
  };
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}): ${log}`);
      const ok = await client
        .connect()
        .then(() => client.ping())
        .then(
          () => true,
          () => false,
        );
      if (ok) break;
      client.disconnect();
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING: ${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid!,
    async counters() {
      const [stats, commandstats] = await Promise.all([client.info('stats'), client.info('commandstats')]);
      const n = infoNumbers(stats);
      return {
        commands: n.get('total_commands_processed') ?? NaN,
        reads: n.get('total_reads_processed') ?? NaN,
        byCommand: commandCalls(commandstats),
        cpuSeconds: procCpuSeconds(child.pid),
      };
    },
    cpuSeconds: () => procCpuSeconds(child.pid),
    stop,
  };
}

/** What Redis did between two readings, per unit of work (`per`: requests or scenarios). */
export interface RedisCost {
  /** Commands executed per unit (scripts count one, plus the commands they run inside). */
  readonly commandsPer: number;
  /** Socket read events per unit: about the client round trips (auto-pipelining batches several commands into one). */
  readonly readsPer: number;
  /** redis-server CPU per unit, in µs. */
  readonly cpuUsPer: number;
  /** The most frequent commands, calls per unit. */
  readonly top: Readonly<Record<string, number>>;
}

/** The cost of the interval between `a` and `b` for `units` units of work. */
export function redisCost(a: RedisCounters, b: RedisCounters, units: number): RedisCost {
  const u = Math.max(1, units);
  const calls = Object.entries(b.byCommand)
    .map(([name, calls]) => [name, (calls - (a.byCommand[name] ?? 0)) / u] as const)
    .filter(([, per]) => per > 0)
    .sort((x, y) => y[1] - x[1])
    .slice(0, 8);
  return {
    commandsPer: (b.commands - a.commands) / u,
    readsPer: (b.reads - a.reads) / u,
    cpuUsPer: ((b.cpuSeconds - a.cpuSeconds) * 1e6) / u,
    top: Object.fromEntries(calls.map(([name, per]) => [name, Math.round(per * 1000) / 1000])),
  };
}
