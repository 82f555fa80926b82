/** @module store/lmdb/backup: a consistent hot copy of the LMDB environment (lmdb-js `backup`, LMDB's `mdb_env_copy2`). */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import { restrictToOwner } from '../data-dir.js';
import { syncToDisk } from '../sync-to-disk.js';
import { ENV_FILE } from './tables.js';

/** What one LMDB backup wrote. */
export interface LmdbBackupResult {
  /** The file written in the destination directory (`gov.mdb`). */
  readonly file: string;
  /** Its size in bytes. */
  readonly bytes: number;
}

/**
 * Copies the environment `<dataDir>/gov.mdb` to `<destDir>/gov.mdb` while other processes (the
 * server, its workers) keep reading and writing it. LMDB copies inside one read transaction, so the
 * copy is the snapshot of the last transaction committed when the copy began (MVCC: writers go on
 * meanwhile and are not in it). Without `compact` the pages are copied as they are (free pages
 * included, the file size of the source); with it, only pages in use, renumbered (slower, smaller).
 * The environment is opened read-only: the backup writes nothing to the source. The copy is made
 * owner-only (0600) and is on disk (fsync) when this resolves; `destDir` must exist and be empty
 * (store/backup checks it).
 * @throws the lmdb-js error of a failed open or copy (no `gov.mdb`: check `hasLmdbStore` first; disk full).
 */
export async function backupLmdb(dataDir: string, destDir: string, compact: boolean): Promise<LmdbBackupResult> {
  const path = join(dataDir, ENV_FILE);
  const env = open({ path, readOnly: true });
  // LMDB creates the lock file (0644 under the usual umask) when no process has the environment open.
  restrictToOwner([`${path}-lock`]);
  const target = join(destDir, ENV_FILE);
  try {
    await env.backup(target, compact);
  } finally {
    await env.close();
  }
  restrictToOwner([target]);
  syncToDisk(target); // LMDB writes the copy (O_DIRECT where it can) but never fsyncs it
  return { file: ENV_FILE, bytes: statSync(target).size };
}

/** Whether `dataDir` holds an LMDB store (`gov.mdb`). */
export function hasLmdbStore(dataDir: string): boolean {
  return existsSync(join(dataDir, ENV_FILE));
}
