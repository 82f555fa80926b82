/**
 * @module test/store/contract/redis-backend: the Redis backend under contract test. One real
 * redis-server per test process (test/helpers/redis-server), started on first use and stopped at
 * exit; each opened backend gets a fresh random key prefix, so tests are isolated without FLUSHALL.
 * Exports only (node's test runner executes every file under dist/test/).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { BackendUnderTest, OpenedBackend, OpenOptions } from './backend.js';
import type { RedisServer } from '../../helpers/redis-server.js';
import { startRedisServer } from '../../helpers/redis-server.js';
import { openRedisStore, type RedisStore } from '../../../src/store/redis/store.js';

let shared: Promise<RedisServer> | undefined;

/** The process's shared server, started on first use; `stop` removes it when the runner ends the file. */
export function sharedRedisServer(): Promise<RedisServer> {
  if (shared === undefined) {
    shared = startRedisServer();
    // The runner keeps the process alive while the server's pipes are open: stop it once the file's tests are done.
    process.once('beforeExit', () => {
      void shared?.then((s) => s.stop());
    });
  }
  return shared;
}

/** Deletes every key under `prefix` (SCAN is fine in tests; the store itself never scans). */
async function deletePrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

/** The Redis backend: a fresh prefix on the shared server; `reopen` reconnects on the same prefix; `close` deletes its keys. */
export const redisBackend: BackendUnderTest = {
  name: 'redis',
  async open(options: OpenOptions = {}): Promise<OpenedBackend> {
    const server = await sharedRedisServer();
    const prefix = `test-${randomBytes(6).toString('hex')}:`;
    const openAt = () =>
      openRedisStore(server.url, options.now === undefined ? { prefix } : { prefix, now: options.now });
    let store: RedisStore = await openAt();
    let closed = false;
    return {
      get store() {
        return store;
      },
      async reopen() {
        await store.close();
        store = await openAt();
        return store;
      },
      async close() {
        if (closed) return;
        closed = true;
        try {
          await store.close();
        } finally {
          await deletePrefix(server.url, prefix);
        }
      },
    };
  },
};
