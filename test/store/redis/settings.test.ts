/** The Redis backend refuses servers that may lose its data, and an acknowledged write survives a restart of Redis (AOF). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startRedisServer } from '../../helpers/redis-server.js';
import { openRedisStore } from '../../../src/store/redis/store.js';
import { RedisSettingsError } from '../../../src/store/redis/settings.js';
import { keyRecord, ORG } from '../contract/fixtures.js';

describe('Redis backend settings and durability', () => {
  it('refuses a server with an evicting maxmemory-policy (evicting_policy)', async () => {
    const server = await startRedisServer({ args: ['--maxmemory-policy', 'allkeys-lru'] });
    try {
      await assert.rejects(
        openRedisStore(server.url),
        (error) => error instanceof RedisSettingsError && error.code === 'evicting_policy',
      );
    } finally {
      await server.stop();
    }
  });

  it('refuses a server without AOF (no_persistence)', async () => {
    const server = await startRedisServer({ args: ['--appendonly', 'no'] });
    try {
      await assert.rejects(
        openRedisStore(server.url),
        (error) => error instanceof RedisSettingsError && error.code === 'no_persistence',
      );
      const unchecked = await openRedisStore(server.url, { checkSettings: false });
      await unchecked.close();
    } finally {
      await server.stop();
    }
  });

  // `appendfsync always`: Redis writes and fsyncs the AOF before it replies. With `everysec` (the
  // helper's default) it postpones the write by up to 2 s while a background fsync runs, replies
  // meanwhile, and a SIGKILL then loses the last acknowledged writes (PITFALLS 30; seen in CI).
  it('keeps an acknowledged write across a crash and restart of the server (appendfsync always: the AOF is replayed), and fails fast while it is down', async () => {
    const server = await startRedisServer({ args: ['--appendfsync', 'always'] });
    // Closed in `finally` too: a store left open reconnects forever and keeps the test file from ending.
    const opened: { close(): Promise<void> }[] = [];
    try {
      const store = await openRedisStore(server.url, { prefix: 'durable:' });
      opened.push(store);
      await store.organizations.createKey(keyRecord('key_1', ORG));
      assert.equal(await store.evaluations.consumeToken('jti-1', 'ev_1', 1), true);
      await server.kill(); // SIGKILL right after the acknowledgements: no SHUTDOWN, no final AOF rewrite
      const started = Date.now();
      await assert.rejects(store.probe());
      await assert.rejects(store.organizations.getKey('key_1'));
      assert.ok(Date.now() - started < 2_000, 'requests fail fast while Redis is down');
      await server.restart();
      const reopened = await openRedisStore(server.url, { prefix: 'durable:' });
      opened.push(reopened);
      assert.equal((await reopened.organizations.getKey('key_1'))?.key_id, 'key_1');
      assert.equal(await reopened.organizations.keyIdByHash(keyRecord('key_1', ORG).hash), 'key_1');
      assert.equal(await reopened.evaluations.consumeToken('jti-1', 'ev_1', 2), false);
    } finally {
      for (const store of opened) await store.close();
      await server.stop();
    }
  });
});
