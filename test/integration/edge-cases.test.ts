/** Rows and rules that need unusual conditions: a vanished organization, a corrupt record (500), trusted proxies, aborted uploads, deleted evaluations. */
import { tablesOf } from '../helpers/tables.js';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importScenario } from '../../src/actors/scenarios.js';
import { GovernanceClient, pollEvaluation } from '../../src/client/client.js';
import type {
  PolicyCatalog,
  Remediation,
  Reply,
  ResultsFetch,
  Rollup,
  StoredSubmitResult,
} from '../../src/client/responses.js';
import { loadConfig } from '../../src/server/config.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { bp, m } from '../helpers/blueprints.js';
import { dataOf, failureOf } from '../helpers/assertions.js';

describe('edge cases', () => {
  let server: RunningServer;
  let dir: string;
  let client: GovernanceClient;
  let orgId: string;
  const logLines: Record<string, unknown>[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gov-edge-'));
    const sink = new Writable({
      write(chunk, _enc, cb) {
        for (const l of String(chunk).split('\n')) if (l) logLines.push(JSON.parse(l) as Record<string, unknown>);
        cb();
      },
    });
    server = await startServer(
      loadConfig({
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dir,
        POOL_THREADS: '1',
        TRUSTED_PROXIES: '127.0.0.1/32',
        METRICS_PORT: '0',
      }),
      { logger: pino({ level: 'info' }, sink) },
    );
    orgId = (await server.keys.createOrg('Edge')).org_id;
    const k = await server.keys.createKey(orgId, { perMinute: 10_000, perHour: 100_000 });
    client = new GovernanceClient(`http://127.0.0.1:${server.port}`, {
      apiKey: k.api_key,
      signingSecret: k.signing_secret,
    });
    await importScenario(server.store.scenarios, orgId, 's1', JSON.stringify(bp([m(1, 'util:SetVariable2')])));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("401 API key context missing when the key's organization no longer exists", async () => {
    const org = await server.keys.createOrg('Doomed');
    const k = await server.keys.createKey(org.org_id);
    await tablesOf(server.store).orgs.remove(org.org_id);
    const res = await new GovernanceClient(`http://127.0.0.1:${server.port}`, {
      apiKey: k.api_key,
      signingSecret: k.signing_secret,
    }).call<Reply<PolicyCatalog>>('GET', '/governance/policies');
    assert.equal(res.status, 401);
    assert.equal(failureOf(res).error, 'API key context missing');
  });

  it('500 Internal server error with a request_id that is also in the log line, and no internals in the body', async () => {
    const broken = await server.keys.createOrg('Broken rollup');
    const k = await server.keys.createKey(broken.org_id);
    await tablesOf(server.store).rollups.put(broken.org_id, {
      org_id: broken.org_id,
      policies: null,
      gaps: 1n,
    } as never);
    const res = await new GovernanceClient(`http://127.0.0.1:${server.port}`, {
      apiKey: k.api_key,
      signingSecret: k.signing_secret,
    }).call<Reply<Rollup>>('GET', '/organization/rollup');
    assert.equal(res.status, 500);
    assert.equal(res.body.ok, false);
    const body = res.body;
    assert.equal(body.error, 'Internal server error');
    assert.match(body.request_id ?? '', /^[0-9a-f]{16}$/);
    assert.doesNotMatch(res.raw, /TypeError|null|at .*\.js/);
    const line = logLines.find((l) => l['request_id'] === body.request_id && l['msg'] === 'unhandled error');
    assert.ok(line, 'the log has the error with the same request_id');
    assert.match(JSON.stringify(line['err']), /TypeError/);
    assert.ok(
      logLines.some((l) => l['request_id'] === body.request_id && l['msg'] === 'request' && l['status'] === 500),
    );
    // A client's valid X-Request-Id is the request id of the body, the header and the log (docs/api.md "Request ids and trace context").
    const own = await new GovernanceClient(`http://127.0.0.1:${server.port}`, {
      apiKey: k.api_key,
      signingSecret: k.signing_secret,
    }).call<Reply<Rollup>>('GET', '/organization/rollup?again=1', undefined, {
      headers: { 'x-request-id': 'client-id-500' },
    });
    assert.equal(own.status, 500);
    assert.equal(failureOf(own).request_id, 'client-id-500');
    assert.equal(own.headers['x-request-id'], 'client-id-500');
    assert.ok(logLines.some((l) => l['request_id'] === 'client-id-500' && l['msg'] === 'unhandled error'));
  });

  it('honours X-Forwarded-For only from a trusted proxy', async () => {
    const k = await server.keys.createKey(orgId, { allowIps: ['203.0.113.0/24'] });
    const c = new GovernanceClient(`http://127.0.0.1:${server.port}`, {
      apiKey: k.api_key,
      signingSecret: k.signing_secret,
    });
    assert.equal(
      (await c.call('GET', '/governance/policies', undefined, { headers: { 'x-forwarded-for': '203.0.113.9' } }))
        .status,
      200,
    );
    assert.equal(
      (await c.call('GET', '/governance/policies', undefined, { headers: { 'x-forwarded-for': '198.51.100.7' } }))
        .status,
      403,
    );
    assert.equal((await c.call('GET', '/governance/policies')).status, 403);
  });

  it('survives aborted and stalled uploads without leaking: the server keeps serving', async () => {
    const rssBefore = process.memoryUsage().rss;
    for (let i = 0; i < 30; i++) {
      await new Promise<void>((resolve) => {
        const sock = connect(server.port, '127.0.0.1', () => {
          sock.write(
            `POST /api/public/v1/evaluate/inline HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1500000\r\n\r\n`,
          );
          sock.write(Buffer.alloc(200_000, 0x20));
          setTimeout(() => {
            sock.destroy();
            resolve();
          }, 5);
        });
        sock.on('error', () => resolve());
      });
    }
    assert.equal((await client.call('GET', '/governance/policies')).status, 200);
    assert.ok(process.memoryUsage().rss - rssBefore < 200 * 1024 * 1024, 'aborted uploads are not retained');
  });

  it('404 Blueprint not found and 500 Remediation generation failed for a scenario whose stored blueprint is missing or corrupt', async () => {
    await importScenario(server.store.scenarios, orgId, 'gone', JSON.stringify(bp([m(1, 'util:SetVariable2')])));
    await tablesOf(server.store).blueprints.remove(`${orgId}\u0000gone\u00001`);
    const missing = await client.call<Reply<Remediation>>('GET', '/violations/gone:SEC-1/remediation');
    assert.equal(missing.status, 404);
    assert.equal(failureOf(missing).error, 'Blueprint not found');
    await importScenario(server.store.scenarios, orgId, 'corrupt', JSON.stringify(bp([m(1, 'util:SetVariable2')])));
    await tablesOf(server.store).blueprints.put(`${orgId}\u0000corrupt\u00001`, Buffer.from('{"flow": [ not json'));
    const failed = await client.call<Reply<Remediation>>('GET', '/violations/corrupt:SEC-1/remediation');
    assert.equal(failed.status, 500);
    assert.equal(failureOf(failed).error, 'Remediation generation failed');
  });

  it('lets exactly one of 20 concurrent redemptions of a complete evaluation win', async () => {
    const submit = dataOf(
      await client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', {
        scenario_ids: ['s1'],
        request: 'concurrency',
      }),
    );
    await pollEvaluation(client, submit.evaluation_id, { delaysMs: [50], timeoutMs: 20_000 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.call<Reply<ResultsFetch>>('POST', '/results/fetch', { result_token: submit.result_token, attempt: i }),
      ),
    );
    assert.equal(results.filter((r) => r.status === 200 && r.body.ok && r.body.data.status === 'complete').length, 1);
    assert.equal(results.filter((r) => r.status === 401).length, 19);
  });

  it('404 Evaluation not found when redeeming the token of a deleted evaluation', async () => {
    const submit = dataOf(await client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ['s1'] }));
    await pollEvaluation(client, submit.evaluation_id, { delaysMs: [50], timeoutMs: 20_000 });
    assert.equal(await server.store.evaluations.delete(submit.evaluation_id), true);
    const res = await client.call<Reply<ResultsFetch>>('POST', '/results/fetch', { result_token: submit.result_token });
    assert.equal(res.status, 404);
    assert.equal(failureOf(res).error, 'Evaluation not found');
  });
});
