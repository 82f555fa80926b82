/**
 * The LMDB tables under a store, for tests that damage stored data on purpose (a missing blueprint,
 * a corrupt rollup) to check how the service copes: repositories offer no way to do that.
 */
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/store.js';
import type { LmdbTables } from '../../src/store/lmdb/tables.js';
import { LmdbStore } from '../../src/store/lmdb/store.js';

/** @throws AssertionError when `store` is not the LMDB backend. */
export function tablesOf(store: Store): LmdbTables {
  assert.ok(store instanceof LmdbStore, 'damage injection needs the LMDB backend');
  return store.tables;
}
