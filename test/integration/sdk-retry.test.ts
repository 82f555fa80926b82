/**
 * The SDK's retry matrix (spec §7) against the real server, with faults injected by a TCP proxy (issue 19):
 * resets, stalls and an injected `500 Remediation generation failed`; 429 with an injected clock; 4xx not
 * retried; total timeout and the caller's abort stop everything.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  GovernanceApiError,
  GovernanceClient,
  GovernanceNetworkError,
  GovernanceTimeoutError,
  type ClientOptions,
} from '@gov/sdk';
import { importScenario } from '../../src/actors/scenarios.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { bp, fakeToken, m } from '../helpers/blueprints.js';

const leaky = bp([
  m(1, 'http:ActionSendData', {
    version: 3,
    mapper: {
      url: 'http://api.example.com/orders',
      headers: [{ name: 'Authorization', value: `Bearer sk_live_${fakeToken(1, 32)}` }],
    },
  }),
]);

describe('SDK retry matrix over a fault-injecting proxy', () => {
  let t: TestServer;
  let proxy: FaultProxy;
  let options: ClientOptions;
  let sdk: GovernanceClient;
  before(async () => {
    t = await startTestServer();
    await importScenario(t.server.store.scenarios, t.orgId, 's1', JSON.stringify(bp([m(1, 'util:SetVariable2')])));
    await importScenario(t.server.store.scenarios, t.orgId, 'leaky', JSON.stringify(leaky));
    // The first evaluation of a scenario writes one more record than later ones: counts start after it.
    assert.equal((await t.client.call('POST', '/evaluate', { scenario_ids: ['s1'], warm_up: true })).status, 200);
    proxy = await startFaultProxy(t.baseUrl);
    options = {
      baseUrl: proxy.baseUrl,
      apiKey: t.creds.apiKey,
      signingSecret: t.creds.signingSecret,
      attemptTimeoutMs: 5_000,
      retry: { baseDelayMs: 20 },
    };
    sdk = new GovernanceClient(options);
  });
  after(async () => {
    await proxy.close();
    await t.close();
  });

  /** Records in the evaluations table once no evaluation is open (completion writes more records). */
  async function evaluationCount(): Promise<number> {
    for (;;) {
      const open = await t.server.store.evaluations.countOpen();
      if (open.pending + open.processing === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await t.server.store.flushed();
    return (await t.server.store.stats()).records['evaluations'] ?? 0;
  }
  /** The requests the proxy sees while `run` runs. */
  async function observe<T>(run: () => Promise<T>) {
    const from = proxy.requests.length;
    const result = await run().then(
      (value) => ({ value, error: undefined }),
      (error: unknown) => ({ value: undefined, error }),
    );
    proxy.clear();
    return { ...result, requests: proxy.requests.slice(from) };
  }

  it('retries a POST /evaluate whose answer was lost to a reset, re-signed with the same Idempotency-Key: one evaluation', async () => {
    const plain = await evaluationCount();
    await sdk.submitEvaluation({ scenario_ids: ['s1'] });
    const before = await evaluationCount();
    const perSubmit = before - plain;
    proxy.fail('reset');
    const { value, requests } = await observe(() => sdk.submitEvaluation({ scenario_ids: ['s1'] }));
    assert.ok(value, 'the call succeeds on its retry');
    assert.deepEqual(
      requests.map((r) => [r.method, r.path, r.fault]),
      [
        ['POST', '/api/public/v1/evaluate', 'reset'],
        ['POST', '/api/public/v1/evaluate', 'pass'],
      ],
    );
    assert.match(requests[0]!.idempotencyKey ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(requests[1]!.idempotencyKey, requests[0]!.idempotencyKey, 'one key per logical call');
    assert.notEqual(requests[1]!.signature, requests[0]!.signature, 'each attempt is signed anew');
    assert.equal(value.attempts, 2);
    assert.equal(value.headers.get('idempotent-replayed'), 'true', 'the server replayed the first answer');
    assert.equal(
      await evaluationCount(),
      before + perSubmit,
      'the reset request ran once, the retry did not run it again',
    );
  });

  it('gives up after 3 retries of network errors with a GovernanceNetworkError', async () => {
    proxy.fail('reset', 4);
    const { error, requests } = await observe(() => sdk.getScenarioResults('s1'));
    assert.ok(error instanceof GovernanceNetworkError, String(error));
    assert.equal(error.kind, 'network');
    assert.equal(error.attempts, 4);
    assert.equal(requests.length, 4);
  });

  it('retries a stalled attempt after its per-attempt timeout, with the same Idempotency-Key: one evaluation', async () => {
    const plain = await evaluationCount();
    await sdk.submitEvaluation({ scenario_ids: ['s1'] });
    const before = await evaluationCount();
    proxy.fail('stall');
    const stallClient = new GovernanceClient({ ...options, attemptTimeoutMs: 500 });
    const { value, error, requests } = await observe(() => stallClient.submitEvaluation({ scenario_ids: ['s1'] }));
    assert.ok(value, String(error));
    assert.deepEqual(
      requests.map((r) => r.fault),
      ['stall', 'pass'],
    );
    assert.equal(requests[1]!.idempotencyKey, requests[0]!.idempotencyKey);
    assert.equal(await evaluationCount(), before + (before - plain), 'one evaluation, as for a plain submit');
  });

  it('retries 500 Remediation generation failed up to 3 times, then answers with the real result', async () => {
    proxy.fail('remediation-500', 3);
    const { value, requests } = await observe(() => sdk.getRemediation('leaky:SEC-1'));
    assert.ok(value);
    assert.equal(value.attempts, 4);
    assert.ok(value.data.steps.length > 0);
    assert.deepEqual(
      requests.map((r) => r.fault),
      ['remediation-500', 'remediation-500', 'remediation-500', 'pass'],
    );
  });

  it('stops after the third retry of 500 Remediation generation failed with a typed error', async () => {
    proxy.fail('remediation-500', 5);
    const { error, requests } = await observe(() => sdk.getRemediation('leaky:SEC-1'));
    assert.ok(error instanceof GovernanceApiError, String(error));
    assert.equal(error.status, 500);
    assert.equal(error.error, 'Remediation generation failed');
    assert.equal(error.requestId, 'proxy-injected');
    assert.equal(error.attempts, 4);
    assert.equal(requests.length, 4);
  });

  it('does not retry 4xx: 404 and 422 come back at once as GovernanceApiError with the envelope', async () => {
    const missing = await observe(() => sdk.getEvaluation('7d3f0c52-1111-4c1e-9a53-0c3f5a1b2c3d'));
    assert.ok(missing.error instanceof GovernanceApiError);
    assert.equal(missing.error.status, 404);
    assert.equal(missing.error.error, 'Evaluation not found');
    assert.ok(missing.error.requestId, 'the x-request-id of the answer');
    assert.equal(missing.requests.length, 1);

    const invalid = await observe(() => sdk.submitEvaluation({ scenario_ids: [] }));
    assert.ok(invalid.error instanceof GovernanceApiError);
    assert.equal(invalid.error.status, 422);
    assert.equal(invalid.error.error, 'Invalid request body');
    assert.ok(invalid.error.detail.length > 0, 'field-level detail[]');
    assert.equal(invalid.error.detail[0]!.path, '/scenario_ids');
    assert.equal(invalid.requests.length, 1);
  });

  it('does not retry a 401 (an unknown key)', async () => {
    const wrong = new GovernanceClient({ ...options, apiKey: `gov_live_${'0'.repeat(48)}` });
    const { error, requests } = await observe(() => wrong.listPolicies());
    assert.ok(error instanceof GovernanceApiError);
    assert.equal(error.status, 401);
    assert.equal(requests.length, 1);
  });

  it('stops at the total timeout while attempts keep stalling', async () => {
    proxy.fail('stall', 20);
    const client = new GovernanceClient({
      ...options,
      attemptTimeoutMs: 200,
      timeoutMs: 900,
      retry: { maxNetworkRetries: 20, baseDelayMs: 10 },
    });
    const { error, requests } = await observe(() => client.getScenarioResults('s1'));
    assert.ok(error instanceof GovernanceTimeoutError, String(error));
    assert.equal(error.timeoutMs, 900);
    assert.ok(requests.length >= 2 && requests.length < 20, `${requests.length} attempts`);
  });

  it("honours the caller's signal during an attempt and during a retry wait", async () => {
    proxy.fail('stall');
    const controller = new AbortController();
    const from = proxy.requests.length;
    const pending = sdk.getScenarioResults('s1', { signal: controller.signal });
    await proxy.seen(from + 1);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await assert.rejects(pending, (err) => err === reason);
    assert.equal(proxy.requests.length, from + 1);

    proxy.fail('reset');
    const waiting = new GovernanceClient({ ...options, retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const second = new AbortController();
    const pendingWait = waiting.getScenarioResults('s1', { signal: second.signal });
    await proxy.seen(from + 2);
    second.abort(reason);
    await assert.rejects(pendingWait, (err) => err === reason);
    proxy.clear();
    assert.equal(proxy.requests.length, from + 2, 'no retry after the abort');
  });

  it('signs two identical POSTs in one second differently, so the replay guard serves both', async () => {
    const [a, b] = [
      await sdk.submitEvaluation({ scenario_ids: ['s1'] }),
      await sdk.submitEvaluation({ scenario_ids: ['s1'] }),
    ];
    assert.notEqual(a.data.evaluation_id, b.data.evaluation_id);
  });

  it('runs the typical flow: submit, waitForEvaluation, results (token redeemed once)', async () => {
    const submitted = (await sdk.submitEvaluation({ scenario_ids: ['s1', 'leaky'] })).data;
    const final = await sdk.waitForEvaluation(submitted, { intervalsMs: [50] });
    assert.equal(final.status, 'complete');
    assert.equal(final.scenarios?.length, 2);
    const results = await sdk.results(submitted, { intervalsMs: [50] });
    assert.equal(results.status, 'complete');
    assert.deepEqual(results.status === 'complete' ? results.scenarios.map((s) => s.scenario_id).sort() : [], [
      'leaky',
      's1',
    ]);
    const again = await sdk.results(submitted).then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(again instanceof GovernanceApiError);
    assert.equal(again.status, 401, 'the token is single-use');
  });
});

describe('SDK and 429 (injected clock)', () => {
  let t: TestServer;
  let nowMs = Date.UTC(2026, 10, 22, 10, 0, 5);
  const clock = () => nowMs;
  before(async () => {
    t = await startTestServer({ now: clock });
    await importScenario(t.server.store.scenarios, t.orgId, 's1', JSON.stringify(bp([m(1, 'util:SetVariable2')])));
  });
  after(() => t.close());

  async function limitedClient(sleeps: number[], timeoutMs = 120_000): Promise<GovernanceClient> {
    const key = await t.server.keys.createKey(t.orgId, { perMinute: 1, perHour: 100 });
    return new GovernanceClient({
      baseUrl: t.baseUrl,
      apiKey: key.api_key,
      signingSecret: key.signing_secret,
      timeoutMs,
      clock,
      random: () => 0.5,
      sleep: (ms) => {
        sleeps.push(ms);
        nowMs += ms;
        return Promise.resolve();
      },
    });
  }

  it('waits Retry-After plus jitter, then succeeds in the next window', async () => {
    nowMs = Date.UTC(2026, 10, 22, 10, 0, 5);
    const sleeps: number[] = [];
    const client = await limitedClient(sleeps);
    assert.equal((await client.getScenarioResults('s1')).attempts, 1);
    const second = await client.getScenarioResults('s1');
    assert.equal(second.attempts, 2);
    assert.deepEqual(sleeps, [55_000 + 125], 'Retry-After 55 s plus 0.5 of the 250 ms jitter');
  });

  it('throws the 429 with retryAfter at once when the wait would outlast the total timeout', async () => {
    nowMs = Date.UTC(2026, 10, 22, 10, 5, 5);
    const sleeps: number[] = [];
    const client = await limitedClient(sleeps, 10_000);
    await client.getScenarioResults('s1');
    const error = await client.getScenarioResults('s1').then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(error instanceof GovernanceApiError);
    assert.equal(error.status, 429);
    assert.equal(error.error, 'Rate limit exceeded');
    assert.equal(error.retryAfter, 55);
    assert.equal(error.attempts, 1);
    assert.deepEqual(sleeps, []);
  });
});
