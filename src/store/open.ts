/** @module store/open: opens the configured storage backend. */
import type { Store } from './store.js';
import { LmdbStore, type LmdbStoreOptions } from './lmdb/store.js';
import { openRedisStore } from './redis/store.js';

/** Options of `openStore`. */
export type StoreOptions = LmdbStoreOptions;

/**
 * Opens the store in `dataDir` (the embedded LMDB backend, the default).
 * @throws DataDirPermissionError when group or others can access `dataDir`.
 */
export function openStore(dataDir: string, options: StoreOptions = {}): Store {
  return new LmdbStore(dataDir, options);
}

/** Where the configured store lives (server/config: `STORE`, `DATA_DIR`, `LMDB_MAP_SIZE`, `REDIS_URL`, `REDIS_PREFIX`). */
export interface StoreLocation {
  readonly store: 'lmdb' | 'redis';
  readonly dataDir: string;
  readonly redisUrl: string;
  readonly redisPrefix: string;
  /** LMDB map size in bytes (`LMDB_MAP_SIZE`; default DEFAULT_MAP_SIZE). */
  readonly lmdbMapSize?: number;
}

/** An opened store, with what the operator should be told about it. */
export interface OpenedStore {
  readonly store: Store;
  /** Why the backend's settings could not be verified (Redis with CONFIG refused), or undefined. */
  readonly warning: string | undefined;
}

/**
 * Opens the configured backend: LMDB in `dataDir`, or Redis at `redisUrl` (checked for a
 * non-evicting policy and an AOF, issue 16 "Durability").
 * @throws DataDirPermissionError (LMDB); RedisSettingsError, or the connection error, (Redis).
 */
export async function openConfiguredStore(
  at: StoreLocation,
  options: { now?: () => number } = {},
): Promise<OpenedStore> {
  if (at.store === 'lmdb')
    return {
      store: openStore(at.dataDir, at.lmdbMapSize === undefined ? options : { ...options, mapSize: at.lmdbMapSize }),
      warning: undefined,
    };
  const store = await openRedisStore(at.redisUrl, { prefix: at.redisPrefix, ...options });
  return { store, warning: store.settingsWarning };
}
