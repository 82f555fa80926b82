/** The console's session-authenticated key administration (/api/v1/session, /api/v1/keys/*) and its error rows. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GovernanceClient, send } from '../../src/client/client.js';
import type { Failure } from '../../src/client/responses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dataOf, expectError } from '../helpers/assertions.js';
import { DATE_TIME_RULE } from '../../src/model/rfc3339.js';

/** The console's success envelope (`{ ok: true, data }`, no watermark) or the spec's error envelope. */
type ConsoleReply<T> = { readonly ok: true; readonly data: T } | Failure;

/** `POST /api/v1/session` 200 (the fields read here). */
interface Session {
  readonly session_token: string;
  readonly expires_at: string;
}

/** A key as the console shows it (never its hash; the fields read here). */
interface KeyView {
  readonly key_id: string;
  readonly state: 'active' | 'revoked' | 'expired';
  readonly rotated_from: string | null;
  readonly expires_at: string | null;
}

/** A key just created or rotated: the clear key and signing secret, shown once. */
interface IssuedKey extends KeyView {
  readonly api_key: string;
  readonly signing_secret: string;
}

describe('console key administration', () => {
  let t: TestServer;
  let other: Awaited<ReturnType<TestServer['addOrg']>>;
  let adminToken: string;
  let memberToken: string;
  const call = <T = unknown>(method: string, path: string, token: string | null, body?: unknown) =>
    send<ConsoleReply<T>>(
      new URL(`/api/v1${path}`, t.baseUrl),
      method,
      {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body ? JSON.stringify(body) : '',
    );

  before(async () => {
    t = await startTestServer();
    other = await t.addOrg('Other');
    await t.server.users.create(t.orgId, 'admin@acme.test', 'admin', 'correct horse battery staple');
    await t.server.users.create(t.orgId, 'member@acme.test', 'member', 'member password 123');
    adminToken = dataOf(
      await call<Session>('POST', '/session', null, {
        email: 'admin@acme.test',
        password: 'correct horse battery staple',
      }),
    ).session_token;
    memberToken = dataOf(
      await call<Session>('POST', '/session', null, { email: 'member@acme.test', password: 'member password 123' }),
    ).session_token;
  });
  after(() => t.close());

  it('logs in with the account password and refuses a wrong one', async () => {
    expectError(
      await call('POST', '/session', null, { email: 'admin@acme.test', password: 'wrong' }),
      401,
      'Invalid email or password',
    );
    expectError(
      await call('POST', '/session', null, { email: 'nobody@acme.test', password: 'wrong' }),
      401,
      'Invalid email or password',
    );
    assert.match(adminToken, /^gov_sess_[0-9a-f]{64}$/);
  });

  it('401 Session authentication required without a valid session', async () => {
    expectError(await call('GET', `/keys?org_id=${t.orgId}`, null), 401, 'Session authentication required');
    expectError(
      await call('GET', `/keys?org_id=${t.orgId}`, `gov_sess_${'0'.repeat(64)}`),
      401,
      'Session authentication required',
    );
    expectError(await call('GET', `/keys?org_id=${t.orgId}`, t.creds.apiKey), 401, 'Session authentication required');
  });

  it('400 Organization context required, 403 Not authorized for another org or a member', async () => {
    expectError(await call('GET', '/keys', adminToken), 400, 'Organization context required');
    expectError(await call('GET', `/keys?org_id=${other.orgId}`, adminToken), 403, 'Not authorized');
    expectError(await call('GET', `/keys?org_id=${t.orgId}`, memberToken), 403, 'Not authorized');
  });

  it('creates a key that works on the public API, lists it, rotates it with overlap and revokes it', async () => {
    const created = await call<IssuedKey>('POST', '/keys', adminToken, {
      org_id: t.orgId,
      name: 'ci',
      permissions: ['governance:read'],
    });
    assert.equal(created.status, 201, created.raw);
    const { key_id: keyId, api_key: apiKey, signing_secret: secret } = dataOf(created);
    const client = new GovernanceClient(t.baseUrl, { apiKey, signingSecret: secret });
    assert.equal((await client.call('GET', '/governance/policies')).status, 200);
    const list = await call<{ readonly keys: readonly KeyView[] }>('GET', `/keys?org_id=${t.orgId}`, adminToken);
    const listed = dataOf(list).keys.find((k) => k.key_id === keyId);
    assert.ok(listed, 'the new key is listed');
    assert.equal(listed.state, 'active');
    assert.ok(!list.raw.includes(apiKey) && !('hash' in listed));

    const rotatedRes = await call<IssuedKey>('POST', `/keys/${keyId}/rotate`, adminToken, {
      org_id: t.orgId,
      overlap_seconds: 3600,
    });
    assert.equal(rotatedRes.status, 201, rotatedRes.raw);
    const rotated = dataOf(rotatedRes);
    assert.notEqual(rotated.api_key, apiKey);
    assert.equal(rotated.rotated_from, keyId);
    assert.equal(
      (await client.call('GET', '/governance/policies')).status,
      200,
      'the old key lives during the overlap',
    );
    const fresh = new GovernanceClient(t.baseUrl, {
      apiKey: rotated.api_key,
      signingSecret: rotated.signing_secret,
    });
    assert.equal((await fresh.call('GET', '/governance/policies')).status, 200);

    const revoked = await call<KeyView>('POST', `/keys/${rotated.key_id}/revoke`, adminToken, { org_id: t.orgId });
    assert.equal(revoked.status, 200);
    assert.equal(dataOf(revoked).state, 'revoked');
    await new Promise((r) => setTimeout(r, 1100)); // the server's key cache lives one second
    expectError(await fresh.call('GET', '/governance/policies'), 401, 'Invalid or expired API key');
    expectError(
      await call('POST', `/keys/${rotated.key_id}/revoke`, adminToken, { org_id: t.orgId }),
      400,
      'Key already revoked',
    );
    expectError(
      await call('POST', `/keys/${rotated.key_id}/rotate`, adminToken, { org_id: t.orgId }),
      400,
      'Key cannot be rotated (inactive or revoked)',
    );
  });

  it("404 Key not found for unknown keys and for another organization's key", async () => {
    expectError(
      await call('POST', '/keys/key_0000000000000000/revoke', adminToken, { org_id: t.orgId }),
      404,
      'Key not found',
    );
    expectError(await call('DELETE', `/keys/${other.keyId}?org_id=${t.orgId}`, adminToken), 404, 'Key not found');
    expectError(
      await call('POST', `/keys/${'k'.repeat(3000)}/rotate`, adminToken, { org_id: t.orgId }),
      404,
      'Key not found',
    );
  });

  it('reads expires_at as an RFC 3339 date-time only: 422 at /expires_at for a lenient form, UTC for an offset', async () => {
    for (const expires of [
      '2027-02-30T00:00:00Z',
      '2027-02-29T00:00:00Z',
      '2027-03-01T00:00:00',
      '2027-03-01',
      '2027-03-01 00:00:00Z',
    ]) {
      const res = await call('POST', '/keys', adminToken, { org_id: t.orgId, name: 'exp', expires_at: expires });
      expectError(res, 422, 'Invalid request body');
      const detail = (res.body as unknown as Failure).detail;
      assert.deepEqual(detail, [{ path: '/expires_at', message: DATE_TIME_RULE }], expires);
    }
    for (const [expires, stored] of [
      ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
      ['2027-03-01T00:30:00+01:00', '2027-02-28T23:30:00.000Z'],
    ]) {
      const res = await call<IssuedKey>('POST', '/keys', adminToken, {
        org_id: t.orgId,
        name: 'exp',
        expires_at: expires,
      });
      assert.equal(res.status, 201, res.raw);
      assert.equal(dataOf(res).expires_at, stored);
    }
  });

  it('ends a session on logout', async () => {
    const token = dataOf(
      await call<Session>('POST', '/session', null, {
        email: 'admin@acme.test',
        password: 'correct horse battery staple',
      }),
    ).session_token;
    assert.equal((await call('DELETE', '/session', token)).status, 200);
    expectError(await call('GET', `/keys?org_id=${t.orgId}`, token), 401, 'Session authentication required');
  });
});
