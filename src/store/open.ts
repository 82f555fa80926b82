/** @module store/open: opens the configured storage backend. */
import type { Store } from './store.js';
import { LmdbStore, type LmdbStoreOptions } from './lmdb/store.js';

/** Options of `openStore`. */
export type StoreOptions = LmdbStoreOptions;

/**
 * Opens the store in `dataDir` (the embedded LMDB backend, the default; issue 16 adds Redis).
 * @throws DataDirPermissionError when group or others can access `dataDir`.
 */
export function openStore(dataDir: string, options: StoreOptions = {}): Store {
  return new LmdbStore(dataDir, options);
}
