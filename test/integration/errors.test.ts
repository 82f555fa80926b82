/** Every error row of spec §7 that the public API produces, over HTTP: status, `ok: false`, exact `error`, `detail`. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { importScenario } from '../../src/actors/scenarios.js';
import { GovernanceClient, pollEvaluation, send, signRequest, type ClientResponse } from '../../src/client/client.js';
import type {
  EvaluationStatus,
  Failure,
  InlineResult,
  Reply,
  StoredSubmitResult,
  SubmitResult,
} from '../../src/client/responses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/assertions.js';
import { bp, breakHandler, m } from '../helpers/blueprints.js';
import { dataOf, failureOf, fieldErrors } from './bodies.js';

const blueprint = bp([m(1, 'google-sheets:watchRows'), m(2, 'google-sheets:addRow', { onerror: breakHandler(3) })]);

describe('error rows', () => {
  let t: TestServer;
  let other: Awaited<ReturnType<TestServer['addOrg']>>;
  before(async () => {
    t = await startTestServer({ env: { BODY_LIMIT_BYTES: String(2 * 1024 * 1024) } });
    other = await t.addOrg('Other Org');
    await importScenario(t.server.store.scenarios, t.orgId, 's1', JSON.stringify(blueprint));
    await importScenario(t.server.store.scenarios, other.orgId, 'theirs', JSON.stringify(blueprint));
  });
  after(() => t.close());

  const url = (p: string) => new URL(`/api/public/v1${p}`, t.baseUrl);

  it('401 Missing or invalid Authorization header', async () => {
    expectError(await send(url('/governance/policies'), 'GET', {}, ''), 401, 'Missing or invalid Authorization header');
    expectError(
      await send(url('/governance/policies'), 'GET', { authorization: 'Basic abc' }, ''),
      401,
      'Missing or invalid Authorization header',
    );
  });

  it('401 Invalid API key format', async () => {
    const c = new GovernanceClient(t.baseUrl, { apiKey: 'sk_live_0123', signingSecret: 'x' });
    expectError(await c.call('GET', '/governance/policies'), 401, 'Invalid API key format');
  });

  it('401 Invalid or expired API key: unknown, revoked and expired keys', async () => {
    const unknown = new GovernanceClient(t.baseUrl, { apiKey: `gov_live_${'ab'.repeat(24)}`, signingSecret: 'x' });
    expectError(await unknown.call('GET', '/governance/policies'), 401, 'Invalid or expired API key');
    const revoked = await t.server.keys.createKey(t.orgId);
    await t.server.keys.revoke(revoked.key_id);
    expectError(
      await new GovernanceClient(t.baseUrl, { apiKey: revoked.api_key, signingSecret: revoked.signing_secret }).call(
        'GET',
        '/governance/policies',
      ),
      401,
      'Invalid or expired API key',
    );
    const expired = await t.server.keys.createKey(t.orgId, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    expectError(
      await new GovernanceClient(t.baseUrl, { apiKey: expired.api_key, signingSecret: expired.signing_secret }).call(
        'GET',
        '/governance/policies',
      ),
      401,
      'Invalid or expired API key',
    );
  });

  it('403 Missing request signature / Invalid request signature (wrong secret, stale time, replay)', async () => {
    expectError(
      await t.client.call('GET', '/governance/policies', undefined, { headers: { 'x-service-signature': null } }),
      403,
      'Missing request signature',
    );
    const wrong = new GovernanceClient(t.baseUrl, { apiKey: t.creds.apiKey, signingSecret: 'gov_sig_wrong' });
    expectError(await wrong.call('GET', '/governance/policies'), 403, 'Invalid request signature');
    expectError(
      await t.client.call('GET', '/governance/policies', undefined, { t: Math.floor(Date.now() / 1000) - 301 }),
      403,
      'Invalid request signature',
    );
    expectError(
      await t.client.call('GET', '/governance/policies', undefined, { t: Math.floor(Date.now() / 1000) + 301 }),
      403,
      'Invalid request signature',
    );
    expectError(
      await t.client.call('GET', '/governance/policies', undefined, {
        headers: { 'x-service-signature': 't=abc,v1=zz' },
      }),
      403,
      'Invalid request signature',
    );
    const body = JSON.stringify({ blueprint });
    const ts = Math.floor(Date.now() / 1000);
    const headers = {
      authorization: `Bearer ${t.creds.apiKey}`,
      'x-service-signature': signRequest(t.creds.signingSecret, ts, 'POST', '/api/public/v1/evaluate/inline', body),
    };
    assert.equal((await send(url('/evaluate/inline'), 'POST', headers, body)).status, 200);
    expectError(await send(url('/evaluate/inline'), 'POST', headers, body), 403, 'Invalid request signature');
    const tampered = await send(url('/evaluate/inline'), 'POST', headers, body.replace('Test scenario', 'Tampered'));
    expectError(tampered, 403, 'Invalid request signature');
  });

  it('403 Browser access not allowed for Origin, Sec-Fetch-Site/-Dest/-User and OPTIONS preflights', async () => {
    expectError(
      await t.client.call('GET', '/governance/policies', undefined, { headers: { origin: 'https://evil.example' } }),
      403,
      'Browser access not allowed',
    );
    expectError(
      await t.client.call('GET', '/governance/policies', undefined, { headers: { 'sec-fetch-site': 'cross-site' } }),
      403,
      'Browser access not allowed',
    );
    expectError(
      await t.client.call('GET', '/governance/policies', undefined, { headers: { 'sec-fetch-dest': 'empty' } }),
      403,
      'Browser access not allowed',
    );
    expectError(
      await t.client.call('GET', '/governance/policies', undefined, { headers: { 'sec-fetch-user': '?1' } }),
      403,
      'Browser access not allowed',
    );
    expectError(
      await send(
        url('/evaluate'),
        'OPTIONS',
        { origin: 'https://x.example', 'access-control-request-method': 'POST' },
        '',
      ),
      403,
      'Browser access not allowed',
    );
  });

  it('403 IP address not allowed, and allowed from a listed IPv4 or IPv6 range', async () => {
    const k = await t.server.keys.createKey(t.orgId, { allowIps: ['10.0.0.0/8', '2001:db8::/32'] });
    const c = new GovernanceClient(t.baseUrl, { apiKey: k.api_key, signingSecret: k.signing_secret });
    expectError(await c.call('GET', '/governance/policies'), 403, 'IP address not allowed');
    const ok = await t.server.keys.createKey(t.orgId, { allowIps: ['127.0.0.0/8', '::1/128'] });
    assert.equal(
      (
        await new GovernanceClient(t.baseUrl, { apiKey: ok.api_key, signingSecret: ok.signing_secret }).call(
          'GET',
          '/governance/policies',
        )
      ).status,
      200,
    );
  });

  it('403 Key lacks governance:evaluate permission (and governance:read for the catalog)', async () => {
    const k = await t.server.keys.createKey(t.orgId, { permissions: ['governance:read'] });
    const c = new GovernanceClient(t.baseUrl, { apiKey: k.api_key, signingSecret: k.signing_secret });
    expectError(
      await c.call('POST', '/evaluate', { scenario_ids: ['s1'] }),
      403,
      'Key lacks governance:evaluate permission',
    );
    expectError(await c.call('GET', '/scenarios/s1/results'), 403, 'Key lacks governance:evaluate permission');
    const e = await t.server.keys.createKey(t.orgId, { permissions: ['governance:evaluate'] });
    expectError(
      await new GovernanceClient(t.baseUrl, { apiKey: e.api_key, signingSecret: e.signing_secret }).call(
        'GET',
        '/governance/policies',
      ),
      403,
      'Key lacks governance:read permission',
    );
  });

  it('403 org_id does not match API key organization', async () => {
    expectError(
      await t.client.call('POST', '/evaluate', { scenario_ids: ['s1'], org_id: other.orgId }),
      403,
      'org_id does not match API key organization',
    );
  });

  it("tenant isolation: another org's evaluation is 403, its scenario 404, its result token 401", async () => {
    const submit = await other.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', {
      scenario_ids: ['theirs'],
    });
    assert.equal(submit.status, 200);
    const { evaluation_id: id, result_token: token } = dataOf(submit);
    expectError(await t.client.call('GET', `/evaluations/${id}`), 403, 'Not authorized for this evaluation');
    expectError(await t.client.call('GET', '/scenarios/theirs/results'), 404, 'Scenario not found');
    expectError(await t.client.call('GET', '/violations/theirs:SEC-1/remediation'), 404, 'Scenario not found');
    expectError(
      await t.client.call('POST', '/evaluate', { scenario_ids: ['theirs'] }),
      404,
      'Unknown scenario_ids not found in this organization: theirs',
    );
    const saved = await other.client.call('POST', '/evaluate/inline', {
      blueprint,
      save_to_workspace: true,
      scenario_id: 'their-saved',
    });
    assert.equal(saved.status, 200);
    expectError(await t.client.call('GET', '/scenarios/their-saved/results'), 404, 'Scenario not found');
    await pollEvaluation<Reply<EvaluationStatus>>(other.client, id, { delaysMs: [50], timeoutMs: 20_000 });
    expectError(
      await t.client.call('POST', '/results/fetch', { result_token: token }),
      401,
      'Invalid, expired, or already-used result token',
    );
    assert.equal((await other.client.call('POST', '/results/fetch', { result_token: token })).status, 200);
  });

  it('404 Evaluation not found, Scenario not found, Unknown scenario_ids (all listed, nothing evaluated)', async () => {
    expectError(
      await t.client.call('GET', '/evaluations/7d3f0c52-1111-4c1e-9a53-0c3f5a1b2c3d'),
      404,
      'Evaluation not found',
    );
    const notFound = await t.client.call('GET', '/scenarios/nope/results');
    expectError(notFound, 404, 'Scenario not found');
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
      assert.ok(notFound.headers[h], `${h} on an authenticated error response`);
    const before = t.server.evaluations.running;
    const res = await t.client.call('POST', '/evaluate', { scenario_ids: ['s1', 'missing-a', 'missing-b'] });
    expectError(res, 404, 'Unknown scenario_ids not found in this organization: missing-a, missing-b');
    assert.equal(t.server.evaluations.running, before);
  });

  it('400 violation_id must be {blueprint_id}:{policy_code}, and 404 for unknown policies', async () => {
    expectError(
      await t.client.call('GET', '/violations/s1-SEC-1/remediation'),
      400,
      'violation_id must be {blueprint_id}:{policy_code}',
    );
    expectError(
      await t.client.call('GET', '/violations/s1:not%20a%20code/remediation'),
      400,
      'violation_id must be {blueprint_id}:{policy_code}',
    );
    expectError(await t.client.call('GET', '/violations/s1:ZZZ-999/remediation'), 404, 'Policy not found');
  });

  it('400 Malformed token, 401 for a forged or garbage-signed token', async () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    expectError(await t.client.call('POST', '/results/fetch', { result_token: 'not-a-jwt' }), 400, 'Malformed token');
    expectError(
      await t.client.call('POST', '/results/fetch', {
        result_token: `${b64({ alg: 'HS256' })}.${b64({ org: t.orgId })}.sig`,
      }),
      400,
      'Malformed token',
    );
    expectError(
      await t.client.call('POST', '/results/fetch', {
        result_token: `${b64({ alg: 'HS256' })}.${b64({ sub: 'x', org: t.orgId, jti: 'j', exp: 9e9, iat: 1 })}.c2ln`,
      }),
      401,
      'Invalid, expired, or already-used result token',
    );
    expectError(
      await t.client.call('POST', '/results/fetch', {
        result_token: `${b64({ alg: 'none' })}.${b64({ sub: 'x', org: t.orgId, jti: 'j', exp: 9e9, iat: 1 })}.`,
      }),
      401,
      'Invalid, expired, or already-used result token',
    );
  });

  it('413 Request body too large, declared or streamed, and the server keeps serving', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024 + 10, 0x20);
    expectError(
      await t.client.call('POST', '/evaluate/inline', undefined, { rawBody: big }),
      413,
      'Request body too large',
    );
    const streamed = await new Promise<ClientResponse<Failure>>((resolve, reject) => {
      const req = request(
        url('/evaluate/inline'),
        { method: 'POST', headers: { authorization: `Bearer ${t.creds.apiKey}`, 'transfer-encoding': 'chunked' } },
        (res) => {
          let raw = '';
          res.on('data', (c) => {
            raw += c;
          });
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(raw) as Failure, raw }),
          );
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 40; i++) req.write(Buffer.alloc(64 * 1024, 0x20));
      req.end();
    });
    expectError(streamed, 413, 'Request body too large');
    assert.equal((await t.client.call('GET', '/governance/policies')).status, 200);
  });

  it('422 Invalid request body with field-level detail[] (malformed JSON, 11 ids, both or neither field, bad blueprint)', async () => {
    const check = async (body: unknown, paths: string[], raw?: string) => {
      const res = await t.client.call<Reply<SubmitResult>>(
        'POST',
        '/evaluate',
        body,
        raw !== undefined ? { rawBody: raw } : {},
      );
      expectError(res, 422, 'Invalid request body');
      assert.deepEqual(
        fieldErrors(res).map((d) => d.path),
        paths,
      );
      assert.ok(!res.raw.includes('must contain 1 to 100 items'));
    };
    await check(undefined, ['/'], '{"scenario_ids": [');
    await check({ scenario_ids: Array.from({ length: 11 }, (_, i) => `s${i}`) }, ['/scenario_ids']);
    await check({ scenario_ids: [] }, ['/scenario_ids']);
    await check({ scenario_ids: ['s1'], blueprints: [blueprint] }, ['/']);
    await check({}, ['/']);
    await check({ scenario_ids: [42] }, ['/scenario_ids/0']);
    await check({ blueprints: [{ name: 'no flow' }] }, ['/blueprints/0/flow']);
    const inline = await t.client.call<Reply<InlineResult>>('POST', '/evaluate/inline', {
      blueprint: { flow: [{ id: 1 }] },
    });
    expectError(inline, 422, 'Invalid request body');
    assert.deepEqual(failureOf(inline).detail, [
      { path: '/blueprint/flow/0/module', message: 'module must be a string of the form "app:Action"' },
    ]);
    expectError(
      await t.client.call('POST', '/evaluate/inline', { include_remediation: true }),
      422,
      'Invalid request body',
    );
    expectError(await t.client.call('POST', '/results/fetch', {}), 422, 'Invalid request body');
  });

  it('404 for unknown routes and 405 for wrong methods, in the envelope, only after the key and signature checks', async () => {
    expectError(await t.client.call('GET', '/nope'), 404, 'Not found');
    expectError(await send(url('/nope'), 'GET', {}, ''), 401, 'Missing or invalid Authorization header');
    expectError(
      await send(url('/evaluate'), 'DELETE', { authorization: `Bearer ${t.creds.apiKey}` }, ''),
      403,
      'Missing request signature',
    );
    expectError(
      await t.client.call('GET', '/nope', undefined, {
        headers: { 'x-service-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
      }),
      403,
      'Invalid request signature',
    );
    const res = await t.client.call('DELETE', '/evaluate');
    expectError(res, 405, 'Method not allowed');
    assert.equal(res.headers['allow'], 'POST');
  });
});
