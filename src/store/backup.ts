/**
 * @module store/backup: `admin backup`: a consistent hot copy of the configured store into an empty
 * directory that can serve as DATA_DIR (issue 19, "Data"). LMDB only: a Redis store is backed up by
 * Redis's own persistence (RDB snapshots, AOF), see docs/operations.md "Backup and restore".
 */
import { chmodSync, copyFileSync, constants, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { StoreLocation } from './open.js';
import { restrictToOwner } from './data-dir.js';
import { syncToDisk } from './sync-to-disk.js';
import { backupLmdb, hasLmdbStore } from './lmdb/backup.js';

/** Why a backup was refused before anything was copied. */
export type BackupErrorCode = 'destination_not_empty' | 'no_store' | 'unsupported_backend';

const MESSAGES: Readonly<Record<BackupErrorCode, (detail: string) => string>> = {
  destination_not_empty: (dest) => `backup destination ${dest} exists and is not an empty directory`,
  no_store: (dir) => `DATA_DIR ${dir} holds no store to back up`,
  unsupported_backend: () =>
    'STORE=redis: back up Redis with its own persistence (RDB snapshots or the AOF); see docs/operations.md "Backup and restore"',
};

/** A refused backup; callers branch on `code`. */
export class BackupError extends Error {
  override readonly name = 'BackupError';
  constructor(
    readonly code: BackupErrorCode,
    detail = '',
  ) {
    super(MESSAGES[code](detail));
  }
}

/** Options of `backupStore`. */
export interface BackupOptions {
  /** Copy only the pages in use (slower, smaller). Default false. */
  readonly compact?: boolean;
  /** Further files of DATA_DIR to copy when present (e.g. the server secrets), by name. */
  readonly extraFiles?: readonly string[];
}

/** What a backup wrote. */
export interface BackupReport {
  /** Absolute path of the backup directory. */
  readonly destination: string;
  readonly compact: boolean;
  /** When the copy began (ISO 8601): every write acknowledged before it is in the backup. */
  readonly started_at: string;
  /** Wall time of the copy in ms. */
  readonly duration_ms: number;
  /** Bytes written, all files together. */
  readonly bytes: number;
  /** The files written, by name. */
  readonly files: readonly string[];
}

/**
 * Backs up the configured store into `dest` (created 0700 when missing; an existing empty directory
 * is restricted to 0700; files are 0600: the service refuses a DATA_DIR that group or others can
 * read). Safe while the server runs and writes. Checks happen before anything is opened: Redis is
 * refused without a connection. When this resolves, the files and the directory are on disk (fsync).
 * @throws BackupError `unsupported_backend` (STORE=redis), `no_store` (DATA_DIR has no store),
 *   `destination_not_empty`; the lmdb-js or file-system error of a failed copy.
 */
export async function backupStore(at: StoreLocation, dest: string, options: BackupOptions = {}): Promise<BackupReport> {
  if (at.store !== 'lmdb') throw new BackupError('unsupported_backend');
  if (!hasLmdbStore(at.dataDir)) throw new BackupError('no_store', at.dataDir);
  const destination = resolve(dest);
  prepareDestination(destination);
  const compact = options.compact ?? false;
  const startedMs = Date.now();
  const copied = await backupLmdb(at.dataDir, destination, compact);
  const duration = Date.now() - startedMs;
  const files = [copied.file];
  let bytes = copied.bytes;
  for (const name of options.extraFiles ?? []) {
    const from = join(at.dataDir, name);
    if (!existsSync(from)) continue;
    const to = join(destination, name);
    copyFileSync(from, to, constants.COPYFILE_EXCL);
    restrictToOwner([to]);
    syncToDisk(to);
    files.push(name);
    bytes += statSync(to).size;
  }
  syncToDisk(destination); // the directory entries of the new files
  return {
    destination,
    compact,
    started_at: new Date(startedMs).toISOString(),
    duration_ms: duration,
    bytes,
    files,
  };
}

/** Creates `dest` 0700, or restricts an existing empty directory to 0700. @throws BackupError `destination_not_empty`. */
function prepareDestination(dest: string): void {
  if (existsSync(dest) && (!statSync(dest).isDirectory() || readdirSync(dest).length > 0))
    throw new BackupError('destination_not_empty', dest);
  mkdirSync(dest, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(dest, 0o700);
}
