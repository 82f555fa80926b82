/** @module test/helpers/process: the real service as a child process (`node dist/src/server/main.js`), for kill -9 and SIGTERM tests; killed when the test process exits. */
import { spawn, type ChildProcess } from 'node:child_process';
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
  return new Promise((resolve, reject) => {
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
    // A test that fails between two starts, or a file the runner cancels, must not leave it running
    // (a failed lifecycle test once left a service with a hung worker burning a core after the suite).
    killAtExit(child);
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
      if (!out.includes('listening')) reject(new Error(`service exited with ${code}: ${err}`));
    });
  });
}
