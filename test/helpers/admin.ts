/** @module test/helpers/admin: the admin CLI as an operator runs it (`node dist/src/cli/admin.js`), a real child process. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ADMIN = fileURLToPath(new URL('../../src/cli/admin.js', import.meta.url));

/** One finished run of the CLI. */
export interface AdminRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  /** When the child was spawned and when it exited (epoch ms, this process's clock). */
  readonly spawnedAt: number;
  readonly exitedAt: number;
}

/**
 * Runs `admin ...args` with `env` added to this process's environment. Asynchronous on purpose: a
 * server hosted by the test process needs the event loop while the CLI works on its store.
 */
export function runAdmin(args: readonly string[], env: Record<string, string>): Promise<AdminRun> {
  const spawnedAt = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [ADMIN, ...args],
      { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const status = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ status, stdout, stderr, spawnedAt, exitedAt: Date.now() });
      },
    );
  });
}
