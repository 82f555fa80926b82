/** @module test/helpers/process: the real service as a child process (`node dist/src/server/main.js`, or a shell command that execs it), for kill -9 and SIGTERM tests; killed when the test process exits. */
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { killAtExit } from '../../bench/lib/cleanup.js';

const MAIN = fileURLToPath(new URL('../../src/server/main.js', import.meta.url));

/** A running service process. */
export interface ServiceProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly baseUrl: string;
  /** Everything the process wrote to stdout and stderr so far. */
  readonly output: string;
  /** Resolves with the exit code (or signal name) and how long the exit took after `signal`. */
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

/** Starts the service on an ephemeral loopback port with `env`, waiting for its "listening" line. */
export function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      BOOTSTRAP_DEMO: 'false',
      LOG_LEVEL: 'warn',
      METRICS_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watchService(child);
}

/**
 * Runs `command`, a shell command line that ends by exec'ing the service (e.g.
 * `DATA_DIR=~/copy exec node dist/src/server/main.js`), with bash in `cwd` and exactly the environment
 * `env` (nothing is added: give HOST, PORT, ...), and waits for the service's "listening" line as
 * `startService` does. With `exec`, the process is the service itself, so `stop` signals it directly.
 */
export function startServiceCommand(command: string, env: NodeJS.ProcessEnv, cwd: string): Promise<ServiceProcess> {
  return watchService(spawn('bash', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** Resolves once `child` printed the service's "listening" line on 127.0.0.1; rejects when it exits first or after 20 s. */
function watchService(child: ChildProcessByStdio<null, Readable, Readable>): Promise<ServiceProcess> {
  // A test that fails between two starts, or a file the runner cancels, must not leave it running
  // (a failed lifecycle test once left a service with a hung worker burning a core after the suite).
  killAtExit(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`service did not start: ${out}${err}`)), 20_000);
    child.stderr.on('data', (c) => {
      err += String(c);
    });
    child.stdout.on('data', (c) => {
      out += String(c);
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        const port = Number(m[1]);
        resolve({
          child,
          port,
          baseUrl: `http://127.0.0.1:${port}`,
          get output() {
            return out + err;
          },
          stop(signal) {
            const started = Date.now();
            return new Promise((r) => {
              if (child.exitCode !== null) return r({ code: child.exitCode, signal: null, ms: 0 });
              child.once('exit', (code, sig) => r({ code, signal: sig, ms: Date.now() - started }));
              child.kill(signal);
            });
          },
        });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!out.includes('listening')) reject(new Error(`service exited with ${code}: ${out}${err}`));
    });
  });
}
