/**
 * @module test/helpers/redis-server: starts a real, throw-away `redis-server` for the Redis backend's
 * tests: a free loopback port (never 6379), a fresh temporary `--dir`, AOF on (`appendfsync everysec`),
 * no RDB snapshots, `noeviction`. The process is killed when the test process exits. Exports only
 * (node's test runner executes every file under dist/test/).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Options of `startRedisServer`. */
export interface RedisServerOptions {
  /** Extra `--name value` arguments, appended after (so overriding) the defaults, e.g. `['--appendonly', 'no']`. */
  readonly args?: readonly string[];
  /** How long to wait for the first PING answer, in ms (default 10,000). */
  readonly readyTimeoutMs?: number;
}

/** A running test server. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Its working directory (the AOF lives here); removed by `stop`. */
  readonly dir: string;
  /** SHUTDOWN (the AOF is flushed), waits for the exit and removes `dir`. Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL (a crash: with `everysec`, up to about 2 s of acknowledged writes may be lost), waits for the exit; keeps `dir`. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and `dir` (the AOF is replayed) once the previous process exited. */
  restart(): Promise<void>;
}

const DEFAULT_READY_TIMEOUT_MS = 10_000;
/** Processes still running with their directories, killed and removed when the test process exits (a test that throws must not leave one behind). */
const running = new Map<ChildProcess, string>();
let exitHookInstalled = false;

/** Finds a free loopback port by listening on port 0 and closing the socket. Never 6379 (a developer's own Redis). */
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
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  const script = join(root, 'scripts', 'ensure-redis.sh');
  const run = spawnSync('bash', [script], { encoding: 'utf8' });
  if (run.status !== 0)
    throw new Error(`redis-server is missing and could not be installed: ${run.stdout}${run.stderr}`);
}

/** Sends one inline command and resolves with the first reply line, or rejects on a connection error. */
function command(port: number, line: string, timeoutMs = 1_000): Promise<string> {
  return new Promise((done, fail) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('timeout')));
    socket.once('error', fail);
    socket.once('connect', () => socket.write(`${line}\r\n`));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      const end = reply.indexOf('\r\n');
      if (end >= 0) {
        socket.end();
        done(reply.slice(0, end));
      }
    });
    socket.once('close', () => done(reply));
  });
}

/** Waits until the server at `port` answers PING, or its process exits, or the time is up. */
async function waitReady(port: number, child: ChildProcess, timeoutMs: number, log: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`redis-server exited (${child.exitCode ?? child.signalCode}): ${log()}`);
    const reply = await command(port, 'PING').catch(() => '');
    if (reply === '+PONG') return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within ${timeoutMs} ms: ${log()}`);
}

/** Resolves once `child` has exited. */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

/**
 * Starts `redis-server` on a free loopback port with a fresh temporary directory and waits until it
 * answers PING. Runs scripts/ensure-redis.sh first when the binary is missing. The process does not
 * keep the test process alive and is killed (its directory removed) when the test process exits.
 * @throws Error when it cannot be installed, exits early or does not answer within `readyTimeoutMs`.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  ensureRedisInstalled();
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const [child, dir] of running) {
        child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gov-redis-'));
  const args = [
    ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--daemonize', 'no'],
    ...['--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '', '--maxmemory-policy', 'noeviction'],
    ...(options.args ?? []),
  ];
  let child: ChildProcess;
  let output = '';
  let removed = false;
  const launch = async (): Promise<void> => {
    output = '';
    child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    running.set(child, dir);
    // Unreferenced: a running server does not keep the test process alive (it is killed at exit).
    child.unref();
    for (const stream of [child.stdout, child.stderr]) (stream as unknown as { unref?: () => void } | null)?.unref?.();
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('exit', () => running.delete(child));
    await waitReady(port, child, options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS, () => output);
  };
  try {
    await launch();
  } catch (error) {
    child!.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    async stop() {
      if (removed) return;
      removed = true;
      await command(port, 'SHUTDOWN').catch(() => '');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited(child);
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async restart() {
      await exited(child);
      await launch();
    },
  };
}
