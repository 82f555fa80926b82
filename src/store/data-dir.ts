/**
 * @module store/data-dir: the data directory's permissions. It holds every tenant's blueprints (with
 * the secrets they carry), results and the server secrets, so only its owner may read it, as
 * PostgreSQL requires of its data directory (issue 13, item 15).
 */
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';

/** The data directory is readable, writable or searchable by group or others: the service refuses to start. */
export class DataDirPermissionError extends Error {
  override readonly name = 'DataDirPermissionError';
  constructor(
    readonly dir: string,
    readonly mode: number,
  ) {
    super(
      `DATA_DIR ${dir} has mode ${mode.toString(8).padStart(4, '0')}: group and others must have no access to it (it holds every tenant's blueprints and results). Run: chmod 700 ${dir}`,
    );
  }
}

/**
 * Creates `dir` with mode 0700 when missing (and its missing parents), and checks that group and
 * others have no access to an existing one. POSIX only (on Windows, modes mean nothing here).
 * @throws DataDirPermissionError when group or others have any permission on `dir`.
 */
export function prepareDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const mode = statSync(dir).mode & 0o7777;
  if ((mode & 0o077) !== 0) throw new DataDirPermissionError(dir, mode);
}

/**
 * Restricts files the store created to their owner (0600): LMDB creates its data and lock files
 * with 0644 under the usual umask. Missing files are skipped.
 */
export function restrictToOwner(paths: readonly string[]): void {
  if (process.platform === 'win32') return;
  for (const path of paths) if (existsSync(path) && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
}
