/** Webhook target rules through the real API, on a server without WEBHOOK_ALLOW_PRIVATE_TARGETS (issue 13 item 17). */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Reply, WebhookCreated, WebhookList } from '../../src/client/responses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dataOf, failureOf } from '../helpers/assertions.js';

describe('webhook targets (private targets not allowed)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('refuses IPv4-compatible, IPv4-mapped, NAT64 and metadata literals and local names with 422 at /url', async () => {
    const cases: [string, string][] = [
      ['https://[::7f00:1]/x', 'must point to a public (global unicast) address, not ipv4Compatible'],
      ['https://[::127.0.0.1]/x', 'must point to a public (global unicast) address, not ipv4Compatible'],
      ['https://[::ffff:8.8.8.8]/x', 'must point to a public (global unicast) address, not ipv4Mapped'],
      ['https://[64:ff9b::a9fe:a9fe]/x', 'must point to a public (global unicast) address, not rfc6052'],
      ['https://169.254.169.254/latest/meta-data', 'must point to a public (global unicast) address, not linkLocal'],
      ['http://127.0.0.1:8080/x', 'must use https'],
      // A trailing dot makes a name absolute, not another name (issue 31, item 6).
      ['https://localhost./h', 'must not point to a local host name'],
      ['https://LOCALHOST../h', 'must not point to a local host name'],
      ['https://metadata.google.internal./h', 'must not point to a local host name'],
      ['https://./h', 'must have a host name'],
    ];
    for (const [url, message] of cases) {
      const res = await t.client.call<Reply<WebhookCreated>>('POST', '/webhooks', { url });
      assert.equal(res.status, 422, `${url}: ${res.raw}`);
      assert.deepEqual(failureOf(res).detail, [{ path: '/url', message }], url);
    }
    assert.equal(dataOf(await t.client.call<Reply<WebhookList>>('GET', '/webhooks')).webhooks.length, 0);
  });

  it('registers a public https target', async () => {
    const res = await t.client.call('POST', '/webhooks', { url: 'https://[2606:4700::1111]/hooks' });
    assert.equal(res.status, 201, res.raw);
  });
});
