/** Issue 18 "last used": a signed request marks its key used; the console's key list shows it once written; shutdown writes it. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GovernanceClient, send } from '../../src/client/client.js';
import type { Failure } from '../../src/client/responses.js';
import { openStore } from '../../src/store/open.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dataOf, expectError } from '../helpers/assertions.js';

type ConsoleReply<T> = { readonly ok: true; readonly data: T } | Failure;

/** A row of the console's `GET /api/v1/keys` (the fields read here). */
interface KeyRow {
  readonly key_id: string;
  readonly last_used_at: string | null;
}

/** The server's clock: fixed, moved by the test, so times can be compared exactly. */
let clockMs = Date.UTC(2030, 0, 15, 9, 30);
const clock = () => clockMs;

describe('key last used', () => {
  let t: TestServer;
  let session: string;
  const listKeys = async () => {
    const res = await send<ConsoleReply<{ readonly keys: readonly KeyRow[] }>>(
      new URL(`/api/v1/keys?org_id=${t.orgId}`, t.baseUrl),
      'GET',
      { authorization: `Bearer ${session}` },
      '',
    );
    return new Map(dataOf(res).keys.map((k) => [k.key_id, k.last_used_at]));
  };

  before(async () => {
    // An hour between timed flushes: only the flushes the test awaits write anything.
    t = await startTestServer({ now: clock, env: { KEY_USE_FLUSH_MS: '3600000' } });
    await t.server.users.create(t.orgId, 'admin@acme.test', 'admin', 'correct horse battery staple');
    const res = await send<ConsoleReply<{ readonly session_token: string }>>(
      new URL('/api/v1/session', t.baseUrl),
      'POST',
      { 'content-type': 'application/json' },
      JSON.stringify({ email: 'admin@acme.test', password: 'correct horse battery staple' }),
    );
    session = dataOf(res).session_token;
  });
  after(() => t.close());

  it('shows never for a key not used yet, and the time of its latest signed request once flushed', async () => {
    assert.equal((await listKeys()).get(t.creds.keyId), null);
    assert.equal((await t.client.call('GET', '/governance/policies')).status, 200);
    clockMs += 2_000;
    assert.equal((await t.client.call('GET', '/governance/policies')).status, 200);
    assert.equal((await listKeys()).get(t.creds.keyId), null, 'not written before the flush');
    await t.server.keyUsage.flush();
    assert.equal((await listKeys()).get(t.creds.keyId), new Date(clockMs).toISOString());
    assert.deepEqual(
      await t.server.store.organizations.keyLastUsed([t.creds.keyId]),
      new Map([[t.creds.keyId, clockMs]]),
    );
  });

  it('records nothing for revoked or unknown keys', async () => {
    const issued = await t.server.keys.createKey(t.orgId, { name: 'revoked' });
    await t.server.keys.revoke(issued.key_id);
    const revoked = new GovernanceClient(
      t.baseUrl,
      { apiKey: issued.api_key, signingSecret: issued.signing_secret },
      clock,
    );
    expectError(await revoked.call('GET', '/governance/policies'), 401, 'Invalid or expired API key');
    const unknown = new GovernanceClient(
      t.baseUrl,
      { apiKey: `gov_live_${'0'.repeat(48)}`, signingSecret: issued.signing_secret },
      clock,
    );
    expectError(await unknown.call('GET', '/governance/policies'), 401, 'Invalid or expired API key');
    assert.equal(t.server.keyUsage.size, 1, 'only the key used in the first case is held');
    await t.server.keyUsage.flush();
    assert.equal((await listKeys()).get(issued.key_id), null);
    assert.deepEqual(await t.server.store.organizations.keyLastUsed([issued.key_id]), new Map());
  });
});

describe('key last used at shutdown', () => {
  it('is written when the server shuts down, before the store closes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gov-last-used-'));
    try {
      const t = await startTestServer({ dataDir, now: clock, env: { KEY_USE_FLUSH_MS: '3600000' } });
      try {
        assert.equal((await t.client.call('GET', '/governance/policies')).status, 200);
      } finally {
        await t.close();
      }
      const store = openStore(dataDir);
      try {
        assert.deepEqual(await store.organizations.keyLastUsed([t.creds.keyId]), new Map([[t.creds.keyId, clockMs]]));
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
