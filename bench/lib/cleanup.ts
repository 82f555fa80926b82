/**
 * @module bench/lib/cleanup: child processes and temporary directories that must not outlive the
 * bench (or a test: test/helpers/process uses it), however it ends: they are killed (SIGKILL) and
 * removed when the process exits, also after an uncaught error, and after SIGINT or SIGTERM (whose
 * default action would skip exit hooks).
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

const children = new Set<ChildProcess>();
const dirs = new Set<string>();
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', () => {
    for (const child of children) child.kill('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      process.stderr.write(`${signal}: stopping the processes this one started\n`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
}

/** Kills `child` when the bench exits, unless it exited before. */
export function killAtExit(child: ChildProcess): void {
  install();
  children.add(child);
  child.once('exit', () => children.delete(child));
}

/** Removes `dir` when the bench exits, unless `forget(dir)` was called after removing it. */
export function removeAtExit(dir: string): string {
  install();
  dirs.add(dir);
  return dir;
}

/** Stops tracking `dir` (removed by its owner). */
export function forget(dir: string): void {
  dirs.delete(dir);
}
