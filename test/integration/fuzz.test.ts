/**
 * Property-based HTTP fuzzing (issue 13, item 9) against the real server: hostile bodies on every
 * POST route and random path segments on every GET route, each correctly signed so it reaches the
 * handlers. Never a 5xx, never a hang, and the server still answers afterwards. fast-check prints
 * the seed and the shrunk request of a failure.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { signRequest } from '../../src/client/client.js';
import type { Reply, StoredSubmitResult, WebhookCreated } from '../../src/client/responses.js';
import { importScenario } from '../../src/actors/scenarios.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bp, m } from '../helpers/blueprints.js';
import { fuzzPath, fuzzPost, type FuzzRequest, type FuzzTargets } from '../helpers/fuzz-requests.js';
import { dataOf } from './bodies.js';

/** Longest wait for one answer, in ms: beyond it the request counts as a hang. */
const ANSWER_WITHIN_MS = 15_000;

describe('HTTP fuzzing', () => {
  let t: TestServer;
  let targets: FuzzTargets;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  let n = 0;

  /** Sends `r` signed with the test key; resolves status and body, rejects on a hang or a network error. */
  const send = (r: FuzzRequest): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const path = `/api/public/v1${r.path}`;
      // Distinct signing times keep repeated bodies from being refused as replays.
      const ts = Math.floor(Date.now() / 1000) - (n++ % 250);
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: t.server.port,
          method: r.method,
          path,
          agent,
          headers: {
            authorization: `Bearer ${t.creds.apiKey}`,
            'x-service-signature': signRequest(t.creds.signingSecret, ts, r.method, path, r.body),
            ...(r.body.length > 0 || r.method === 'POST'
              ? { 'content-type': 'application/json', 'content-length': String(r.body.length) }
              : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.setTimeout(ANSWER_WITHIN_MS, () =>
        req.destroy(new Error(`no answer within ${ANSWER_WITHIN_MS} ms: ${r.method} ${r.path}`)),
      );
      req.on('error', reject);
      req.end(r.body);
    });

  const statuses = new Map<string, number>();
  const answersWithoutServerError = async (r: FuzzRequest): Promise<void> => {
    const res = await send(r);
    const label = `${r.method} /${r.path.split('/')[1]!.slice(0, 12)} ${res.status}`;
    statuses.set(label, (statuses.get(label) ?? 0) + 1);
    assert.ok(
      res.status >= 200 && res.status < 500,
      `${r.method} ${r.path.slice(0, 200)} (${r.body.length} bytes) → ${res.status} ${res.body.slice(0, 300)}`,
    );
    if (r.method !== 'HEAD' && res.status !== 304) {
      const answer = JSON.parse(res.body) as { readonly ok?: unknown };
      assert.equal(typeof answer.ok, 'boolean', 'an enveloped JSON answer');
    }
  };

  before(async () => {
    t = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', POOL_THREADS: '2' } });
    await importScenario(
      t.server.store.scenarios,
      t.orgId,
      's1',
      JSON.stringify(
        bp([
          m(1, 'gateway:CustomWebHook'),
          m(2, 'http:ActionSendData', { mapper: { url: 'http://example.com/{{1.x}}' } }),
        ]),
      ),
    );
    const hook = await t.client.call<Reply<WebhookCreated>>('POST', '/webhooks', { url: 'http://127.0.0.1:9/fuzz' });
    const submit = await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ['s1'] });
    targets = {
      scenarioId: 's1',
      webhookId: dataOf(hook).webhook_id,
      resultToken: dataOf(submit).result_token,
    };
  });
  after(async () => {
    agent.destroy();
    await t.close();
  });

  it('answers hostile bodies on every POST route without a 5xx or a hang', async () => {
    await fc.assert(fc.asyncProperty(fuzzPost(targets), answersWithoutServerError), { numRuns: 600 });
  });

  it('answers random path segments on every GET route (and HEAD, DELETE) without a 5xx or a hang', async () => {
    await fc.assert(fc.asyncProperty(fuzzPath(targets), answersWithoutServerError), { numRuns: 600 });
  });

  it('still answers ordinary requests afterwards', async (c) => {
    c.diagnostic(
      `answers: ${[...statuses]
        .sort()
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')}`,
    );
    assert.equal((await t.client.call('GET', '/governance/policies')).status, 200);
    const inline = await t.client.call('POST', '/evaluate/inline', { blueprint: bp([m(1, 'util:SetVariable2')]) });
    assert.equal(inline.status, 200, inline.raw);
    assert.equal((await t.client.call('GET', '/scenarios/s1/results')).status, 200);
  });
});
