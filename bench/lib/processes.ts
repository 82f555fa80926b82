/** @module bench/lib/processes: starts the service and the reference servers as child processes and samples their memory. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { killAtExit } from './cleanup.js';

const DIST = fileURLToPath(new URL('../../', import.meta.url));

/** A started child process with its port. */
export interface Child {
  readonly child: ChildProcess;
  readonly port: number;
  readonly url: string;
  stop(): Promise<void>;
  /** Resident set size in bytes (from /proc). */
  rss(): number;
  /** Anonymous resident memory in bytes (heap and stacks; excludes LMDB's file-backed pages). */
  rssAnon(): number;
  /** CPU time used so far by every thread of the process (user + system), in seconds. */
  cpuSeconds(): number;
}

/** Clock ticks per second of /proc/<pid>/stat (`getconf CLK_TCK`; 100 on Linux). */
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU time used so far by every thread of process `pid` (user + system, from /proc/<pid>/stat), in seconds; 0 once it is gone. */
export function procCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    // Fields 14 and 15 (utime, stime) follow the parenthesised command name.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return 0;
  }
}

/** Starts `dist/<script>` with `env` and waits for its "listening on http://127.0.0.1:<port>" line. */
export function startChild(
  script: string,
  env: Record<string, string>,
  execArgv: readonly string[] = [],
): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...execArgv, `${DIST}${script}`], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    killAtExit(child);
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      // Not left running: the caller never gets a handle to stop it.
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start: ${out}${err}`));
    }, 30_000);
    child.stderr.on('data', (c) => {
      err += String(c);
    });
    let listening = false;
    child.stdout.on('data', (c) => {
      // Drained for the whole run (a full pipe would block the service's synchronous log writes),
      // kept only until the service listens: an access log at `info` would otherwise pile up here.
      if (listening) return;
      out += String(c);
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m && timer) {
        listening = true;
        clearTimeout(timer);
        const port = Number(m[1]);
        resolve({
          child,
          port,
          url: `http://127.0.0.1:${port}`,
          stop: () =>
            new Promise((r) => {
              if (child.exitCode !== null || child.signalCode !== null) return r(); // exited, or killed by a signal
              child.once('exit', () => r());
              child.kill('SIGTERM');
              setTimeout(() => child.kill('SIGKILL'), 5000).unref();
            }),
          rss() {
            try {
              const m2 = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
              return m2 ? Number(m2[1]) * 1024 : 0;
            } catch {
              return 0;
            }
          },
          cpuSeconds: () => procCpuSeconds(child.pid),
          rssAnon() {
            try {
              const m2 = /RssAnon:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
              return m2 ? Number(m2[1]) * 1024 : 0;
            } catch {
              return 0;
            }
          },
        });
        out = '';
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0 && code !== null) reject(new Error(`${script} exited ${code}: ${err}`));
    });
  });
}

/** The service (`dist/src/server/main.js`) on ephemeral ports with a data directory, in its default configuration (`LOG_LEVEL=info`: access log on) unless `env` says otherwise; `execArgv` goes to node (e.g. `--cpu-prof`). */
export function startService(
  dataDir: string,
  env: Record<string, string> = {},
  execArgv: readonly string[] = [],
): Promise<Child> {
  return startChild(
    'src/server/main.js',
    {
      HOST: '127.0.0.1',
      PORT: '0',
      METRICS_PORT: '0',
      DATA_DIR: dataDir,
      BOOTSTRAP_DEMO: 'false',
      // The default configuration, access log on (issue 20): what users run is what is measured.
      LOG_LEVEL: 'info',
      ...env,
    },
    execArgv,
  );
}
