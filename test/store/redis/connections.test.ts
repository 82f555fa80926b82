/**
 * The Redis backend's guarantees hold across connections (as across processes and nodes: each has
 * its own): single use, rate-limit totals and the endpoint limit, with two stores on one prefix.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startRedisServer } from '../../helpers/redis-server.js';
import { openRedisStore } from '../../../src/store/redis/store.js';
import { ORG, webhookRecord } from '../contract/fixtures.js';

describe('Redis backend across connections', () => {
  it('gives a token, a rate budget and the endpoint limit out exactly once over two connections', async () => {
    const server = await startRedisServer();
    try {
      const a = await openRedisStore(server.url, { prefix: 'two:' });
      const b = await openRedisStore(server.url, { prefix: 'two:' });
      const stores = [a, b];
      const wins = await Promise.all(
        Array.from({ length: 40 }, (_, i) => stores[i % 2]!.evaluations.consumeToken('jti-1', 'ev_1', i)),
      );
      assert.equal(wins.filter(Boolean).length, 1);
      const grants = await Promise.all(
        Array.from({ length: 40 }, (_, i) => stores[i % 2]!.rateLimits.take('key_1', 'minute', 1, 3, 50)),
      );
      assert.equal(
        grants.reduce((sum, g) => sum + g.granted, 0),
        50,
      );
      const created = await Promise.all(
        Array.from({ length: 12 }, (_, i) => stores[i % 2]!.webhooks.create(webhookRecord(`wh_${i}`, ORG), 4)),
      );
      assert.equal(created.filter(Boolean).length, 4);
      assert.equal((await b.webhooks.list(ORG)).length, 4);
      await a.close();
      await b.close();
    } finally {
      await server.stop();
    }
  });
});
