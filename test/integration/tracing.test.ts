/**
 * Request ids, trace context and refusal logs (issue 19, section 6): a valid `X-Request-Id` is kept
 * and echoed, an invalid one replaced; a valid `traceparent` puts `trace_id` and `span_id` on the
 * request's log line; every 401/403/429 is logged once with its refusal code and the key id when
 * known, never with a key, secret or signature.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { loadConfig } from '../../src/server/config.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { GovernanceClient, signRequest } from '../../src/client/client.js';
import type { RefusalReason } from '../../src/server/refusal-reasons.js';

type Line = Record<string, unknown>;

describe('request ids, trace context and refusal logs', () => {
  let server: RunningServer;
  let dir: string;
  let base: string;
  let orgId: string;
  let client: GovernanceClient;
  let keyId: string;
  const secrets: string[] = [];
  const raw: string[] = [];
  const lines: Line[] = [];
  let n = 0;
  /** A fresh request id per request, so that each test finds its own log line. */
  const rid = (label: string) => `test-${label}-${++n}`;
  const lineOf = (requestId: string): Line => {
    const found = lines.filter((l) => l['request_id'] === requestId);
    assert.equal(found.length, 1, `one log line for ${requestId}: ${JSON.stringify(found)}`);
    return found[0]!;
  };
  const newKey = async (options: Parameters<RunningServer['keys']['createKey']>[1]) => {
    const k = await server.keys.createKey(orgId, options);
    secrets.push(k.api_key, k.signing_secret);
    return {
      keyId: k.key_id,
      client: new GovernanceClient(base, { apiKey: k.api_key, signingSecret: k.signing_secret }),
    };
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gov-trace-'));
    const sink = new Writable({
      write(chunk, _enc, cb) {
        raw.push(String(chunk));
        for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l) as Line);
        cb();
      },
    });
    server = await startServer(
      loadConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dir, POOL_THREADS: '1', METRICS_PORT: '0' }),
      { logger: pino({ level: 'info' }, sink) },
    );
    base = `http://127.0.0.1:${server.port}`;
    orgId = (await server.keys.createOrg('Trace')).org_id;
    const k = await newKey({ perMinute: 10_000, perHour: 100_000 });
    keyId = k.keyId;
    client = k.client;
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Asserts the refusal's one log line: `warn`, `request refused`, its code and key id. */
  function assertRefusal(requestId: string, status: number, reason: RefusalReason, key: string | null): void {
    const line = lineOf(requestId);
    assert.equal(line['msg'], 'request refused');
    assert.equal(line['level'], 40);
    assert.equal(line['status'], status);
    assert.equal(line['reason'], reason);
    assert.equal(line['key_id'], key);
  }

  it('keeps a valid X-Request-Id: echoed in the header and logged', async () => {
    const id = 'req-01HZX8Y:abc.DEF_42';
    const res = await client.call('GET', '/governance/policies', undefined, { headers: { 'x-request-id': id } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-request-id'], id);
    const line = lineOf(id);
    assert.equal(line['msg'], 'request');
    assert.equal(line['level'], 30);
    assert.equal(line['trace_id'], undefined);
  });

  it('replaces an invalid X-Request-Id with a generated one instead of refusing the request', async () => {
    for (const bad of ['has space', 'x'.repeat(129), 'semi;colon', 'é']) {
      const res = await client.call('GET', '/governance/policies', undefined, { headers: { 'x-request-id': bad } });
      assert.equal(res.status, 200, bad);
      const id = res.headers['x-request-id'] as string;
      assert.match(id, /^[0-9a-f]{16}$/, bad);
      assert.equal(lineOf(id)['status'], 200);
      assert.ok(!lines.some((l) => l['request_id'] === bad));
    }
  });

  it('logs trace_id and a new span_id for a valid traceparent, and ignores an invalid one', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const id = rid('trace');
    await client.call('GET', '/governance/policies', undefined, {
      headers: { 'x-request-id': id, traceparent: `00-${traceId}-${parentId}-01` },
    });
    const line = lineOf(id);
    assert.equal(line['trace_id'], traceId);
    assert.match(String(line['span_id']), /^[0-9a-f]{16}$/);
    assert.notEqual(line['span_id'], parentId);
    for (const bad of [
      `00-${'0'.repeat(32)}-${parentId}-01`,
      `00-${traceId}-${'0'.repeat(16)}-01`,
      `ff-${traceId}-${parentId}-01`,
      `00-${traceId.toUpperCase()}-${parentId}-01`,
      `00-${traceId}-${parentId}-01-extra`,
    ]) {
      const badId = rid('badtrace');
      const res = await client.call('GET', '/governance/policies', undefined, {
        headers: { 'x-request-id': badId, traceparent: bad },
      });
      assert.equal(res.status, 200, bad);
      assert.equal(lineOf(badId)['trace_id'], undefined, bad);
    }
  });

  it('puts trace_id on a refusal line too', async () => {
    const id = rid('trace-refused');
    const traceId = 'a'.repeat(31) + 'b';
    const res = await client.call('GET', '/governance/policies', undefined, {
      headers: { 'x-request-id': id, traceparent: `00-${traceId}-${'c'.repeat(16)}-00`, authorization: null },
    });
    assert.equal(res.status, 401);
    assertRefusal(id, 401, 'missing_authorization', null);
    assert.equal(lineOf(id)['trace_id'], traceId);
  });

  it('logs each 401 with its reason code, and the key id when the key is known', async () => {
    let id = rid('unknown');
    const unknown = new GovernanceClient(base, { apiKey: `gov_live_${'0'.repeat(48)}`, signingSecret: 'x' });
    assert.equal(
      (await unknown.call('GET', '/governance/policies', undefined, { headers: { 'x-request-id': id } })).status,
      401,
    );
    assertRefusal(id, 401, 'unknown_key', null);

    id = rid('format');
    const malformed = new GovernanceClient(base, { apiKey: 'gov_live_short', signingSecret: 'x' });
    assert.equal(
      (await malformed.call('GET', '/governance/policies', undefined, { headers: { 'x-request-id': id } })).status,
      401,
    );
    assertRefusal(id, 401, 'bad_key_format', null);

    const revoked = await newKey({});
    await server.keys.revoke(revoked.keyId);
    id = rid('revoked');
    assert.equal(
      (await revoked.client.call('GET', '/governance/policies', undefined, { headers: { 'x-request-id': id } })).status,
      401,
    );
    assertRefusal(id, 401, 'key_revoked', revoked.keyId);
  });

  it('logs each 403 with its reason code and the key id', async () => {
    let id = rid('nosig');
    let res = await client.call('GET', '/governance/policies', undefined, {
      headers: { 'x-request-id': id, 'x-service-signature': null },
    });
    assert.equal(res.status, 403);
    assertRefusal(id, 403, 'missing_signature', keyId);

    id = rid('badsig');
    const forged = signRequest(
      'not-the-secret',
      Math.floor(Date.now() / 1000),
      'GET',
      '/api/public/v1/governance/policies',
    );
    secrets.push(forged.slice(forged.indexOf('v1=') + 3));
    res = await client.call('GET', '/governance/policies', undefined, {
      headers: { 'x-request-id': id, 'x-service-signature': forged },
    });
    assert.equal(res.status, 403);
    assertRefusal(id, 403, 'bad_signature', keyId);

    id = rid('malformed');
    res = await client.call('GET', '/governance/policies', undefined, {
      headers: { 'x-request-id': id, 'x-service-signature': 'v1=zz' },
    });
    assertRefusal(id, 403, 'malformed_signature', keyId);

    id = rid('stale');
    res = await client.call('GET', '/governance/policies', undefined, {
      headers: { 'x-request-id': id },
      t: Math.floor(Date.now() / 1000) - 3600,
    });
    assert.equal(res.status, 403);
    assertRefusal(id, 403, 'stale_signature', keyId);

    // The same signed POST twice within one second: the second is a replay.
    const t = Math.floor(Date.now() / 1000);
    const body = { scenario_ids: ['no-such-scenario'] };
    const first = await client.call('POST', '/evaluate', body, { t, headers: { 'x-request-id': rid('first') } });
    assert.notEqual(first.status, 403);
    id = rid('replay');
    res = await client.call('POST', '/evaluate', body, { t, headers: { 'x-request-id': id } });
    assert.equal(res.status, 403);
    assertRefusal(id, 403, 'replay', keyId);

    const reader = await newKey({ permissions: ['governance:read'] });
    id = rid('perm');
    res = await reader.client.call(
      'POST',
      '/evaluate',
      { scenario_ids: ['x'], n: id },
      { headers: { 'x-request-id': id } },
    );
    assert.equal(res.status, 403);
    assertRefusal(id, 403, 'permission_denied', reader.keyId);

    const fenced = await newKey({ allowIps: ['203.0.113.0/24'] });
    id = rid('ip');
    res = await fenced.client.call('GET', '/governance/policies', undefined, { headers: { 'x-request-id': id } });
    assert.equal(res.status, 403);
    assertRefusal(id, 403, 'ip_not_allowed', fenced.keyId);

    id = rid('browser');
    res = await client.call('GET', '/governance/policies', undefined, {
      headers: { 'x-request-id': id, origin: 'https://evil.example' },
    });
    assert.equal(res.status, 403);
    assertRefusal(id, 403, 'browser', null);
  });

  it('logs a 429 with rate_limited and the key id', async () => {
    const limited = await newKey({ perMinute: 1, perHour: 100 });
    assert.equal((await limited.client.call('GET', '/governance/policies?a=1')).status, 200);
    const id = rid('429');
    const res = await limited.client.call('GET', '/governance/policies?a=2', undefined, {
      headers: { 'x-request-id': id },
    });
    assert.equal(res.status, 429);
    assertRefusal(id, 429, 'rate_limited', limited.keyId);
  });

  it('never logs a key, signing secret or signature', () => {
    const all = raw.join('');
    assert.ok(lines.filter((l) => l['msg'] === 'request refused').length >= 12);
    for (const s of secrets) assert.ok(!all.includes(s), 'a secret appears in the log');
    assert.ok(!/x-service-signature|bearer /i.test(all));
  });
});
