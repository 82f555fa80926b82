/**
 * @module test/helpers/redis-env: the environment of a server in cluster mode on the test process's
 * shared redis-server (test/store/contract/redis-backend), under a fresh key prefix so that servers
 * of different tests never see each other's state. Exports only.
 */
import { randomBytes } from 'node:crypto';
import { sharedRedisServer } from '../store/contract/redis-backend.js';

/** Fixed secrets shared by every node of one test cluster (they must be equal on every node). */
const PEPPER = 'a1'.repeat(32);
const MASTER = 'b2'.repeat(32);

/**
 * `STORE=redis` with `REDIS_URL` of the shared server and a new `REDIS_PREFIX`: pass the same
 * object to several servers to make them nodes of one cluster. Chunk locks are short (1 s) so that
 * a dead node's chunks move on within the tests' patience.
 */
export async function redisClusterEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const server = await sharedRedisServer();
  return {
    STORE: 'redis',
    REDIS_URL: server.url,
    REDIS_PREFIX: `it-${randomBytes(5).toString('hex')}:`,
    GOV_KEY_PEPPER: PEPPER,
    GOV_MASTER_KEY: MASTER,
    CHUNK_LOCK_MS: '1000',
    ...extra,
  };
}
