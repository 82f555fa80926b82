/**
 * @module test/store/contract/backend: the parameter of the store contract suites (STYLE 18: the same
 * cases on every backend, keyv's `keyvTestSuite` model) and the LMDB backend's factory. Exports only
 * (node's test runner executes every file under dist/test/).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../../../src/store/store.js';
import { openStore } from '../../../src/store/open.js';

/** Options of one opened backend. */
export interface OpenOptions {
  /** Epoch ms clock of the store (rollup `updated_at`); default Date.now. */
  readonly now?: () => number;
}

/** A backend opened on fresh, empty state of its own. */
export interface OpenedBackend {
  /** The current store (the one `reopen` opened last). */
  readonly store: Store;
  /**
   * Closes the current store and opens a new one on the same state (what survives a restart, for
   * durability and crash-recovery cases). @returns the new store, also `store` from now on.
   */
  reopen(): Promise<Store>;
  /** Closes the current store and removes its state. Idempotent. */
  close(): Promise<void>;
}

/** A storage backend under contract test. */
export interface BackendUnderTest {
  /** Shown in the suites' names (`lmdb`, `redis`). */
  readonly name: string;
  /** Opens a store on fresh, empty state. */
  open(options?: OpenOptions): Promise<OpenedBackend>;
}

let pristine: string | undefined;

/**
 * A directory holding the `gov.mdb` that a first open of an empty DATA_DIR leaves behind (its named
 * databases created, migrations recorded), made once per process and removed at exit. A fresh store
 * starts from a copy of it: creating the ~20 named databases costs one synced write transaction
 * each (~130 ms per store here), which made opening the largest cost of the suites.
 */
async function pristineDir(): Promise<string> {
  if (pristine !== undefined) return pristine;
  const dir = mkdtempSync(join(tmpdir(), 'gov-contract-pristine-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  await openStore(dir).close();
  pristine = dir;
  return dir;
}

/** The LMDB backend (the default): a temporary DATA_DIR under os.tmpdir(), removed on close. */
export const lmdbBackend: BackendUnderTest = {
  name: 'lmdb',
  async open(options: OpenOptions = {}): Promise<OpenedBackend> {
    const template = await pristineDir();
    const dir = mkdtempSync(join(tmpdir(), 'gov-contract-'));
    copyFileSync(join(template, 'gov.mdb'), join(dir, 'gov.mdb'));
    const openAt = () => openStore(dir, options.now === undefined ? {} : { now: options.now });
    let store = openAt();
    let closed = false;
    return {
      get store() {
        return store;
      },
      async reopen() {
        await store.close();
        store = openAt();
        return store;
      },
      async close() {
        if (closed) return;
        closed = true;
        try {
          await store.close();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  },
};

/** Opens `backend`, runs `body` with it, and closes it (also when `body` throws). */
export async function withBackend<T>(
  backend: BackendUnderTest,
  body: (opened: OpenedBackend) => Promise<T>,
  options?: OpenOptions,
): Promise<T> {
  const opened = await backend.open(options);
  try {
    return await body(opened);
  } finally {
    await opened.close();
  }
}
