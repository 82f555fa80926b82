/** @module store/sync-to-disk: fsync of a file or directory by path (a backup is durable when the command returns). */
import { closeSync, fsyncSync, openSync } from 'node:fs';

/**
 * Flushes `path` (a file, or a directory for its entries) to disk with fsync(2).
 * @throws the file-system error (ENOENT, EIO).
 */
export function syncToDisk(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
