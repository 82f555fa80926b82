/** Rules that depend on time, driven by an injected clock (never by sleeping): rate windows, token expiry, ephemeral purge and retention. */
import { tablesOf } from '../helpers/tables.js';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importScenario } from '../../src/actors/scenarios.js';
import { GovernanceClient, pollEvaluation, type ClientResponse } from '../../src/client/client.js';
import type {
  Reply,
  ResultsFetch,
  ScenarioResults,
  StoredSubmitResult,
  SubmitResult,
} from '../../src/client/responses.js';
import { sliceOf } from '../../src/server/pipeline/rate-limit.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bp, m } from '../helpers/blueprints.js';
import { dataOf, failureOf } from '../helpers/assertions.js';

describe('time-dependent rules', () => {
  let t: TestServer;
  let nowMs = Date.UTC(2026, 10, 22, 10, 0, 5);
  const clock = () => nowMs;
  before(async () => {
    t = await startTestServer({ now: clock });
    await importScenario(t.server.store.scenarios, t.orgId, 's1', JSON.stringify(bp([m(1, 'util:SetVariable2')])));
  });
  after(() => t.close());

  async function keyWith(perMinute: number, perHour: number): Promise<GovernanceClient> {
    const k = await t.server.keys.createKey(t.orgId, { perMinute, perHour });
    return new GovernanceClient(t.baseUrl, { apiKey: k.api_key, signingSecret: k.signing_secret }, clock);
  }

  it('allows 60 calls in a clock minute, refuses the 61st with 429 and Retry-After, and resets next minute', async () => {
    nowMs = Date.UTC(2026, 10, 22, 10, 0, 5);
    const c = await keyWith(60, 1000);
    let last: ClientResponse<unknown> | undefined;
    for (let i = 0; i < 60; i++) {
      last = await c.call('GET', `/scenarios/s1/results?n=${i}`);
      assert.equal(last.status, 200, `call ${i + 1}`);
    }
    assert.equal(last!.headers['x-ratelimit-limit'], '60');
    assert.equal(last!.headers['x-ratelimit-remaining'], '0');
    assert.equal(last!.headers['x-ratelimit-reset'], String(Date.UTC(2026, 10, 22, 10, 1, 0) / 1000));
    const limited = await c.call<Reply<ScenarioResults>>('GET', '/scenarios/s1/results?n=61');
    assert.equal(limited.status, 429);
    assert.equal(failureOf(limited).error, 'Rate limit exceeded');
    assert.equal(limited.headers['retry-after'], '55');
    // spec §8 rule 2: the refusal carries the rate-limit state too, each header once.
    assert.equal(limited.headers['x-ratelimit-limit'], '60');
    assert.equal(limited.headers['x-ratelimit-remaining'], '0');
    assert.equal(limited.headers['x-ratelimit-reset'], String(Date.UTC(2026, 10, 22, 10, 1, 0) / 1000));
    nowMs = Date.UTC(2026, 10, 22, 10, 1, 0);
    assert.equal((await c.call('GET', '/scenarios/s1/results?n=62')).status, 200);
  });

  it('enforces the hour limit independently of the minute limit', async () => {
    nowMs = Date.UTC(2026, 10, 22, 11, 0, 0);
    const c = await keyWith(60, 100);
    for (let minute = 0; minute < 2; minute++) {
      nowMs = Date.UTC(2026, 10, 22, 11, minute, 0);
      for (let i = 0; i < 50; i++)
        assert.equal((await c.call('GET', `/scenarios/s1/results?m=${minute}&i=${i}`)).status, 200);
    }
    nowMs = Date.UTC(2026, 10, 22, 11, 2, 30);
    const limited = await c.call('GET', '/scenarios/s1/results?over=1');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['retry-after'], String(57 * 60 + 30));
    nowMs = Date.UTC(2026, 10, 22, 12, 0, 0);
    assert.equal((await c.call('GET', '/scenarios/s1/results?next-hour=1')).status, 200);
  });

  it('leases the budget from the store shared by every process, one slice at a time', async () => {
    nowMs = Date.UTC(2026, 10, 22, 13, 0, 0);
    const k = await t.server.keys.createKey(t.orgId, { perMinute: 60, perHour: 1000 });
    const c = new GovernanceClient(t.baseUrl, { apiKey: k.api_key, signingSecret: k.signing_secret }, clock);
    let last: ClientResponse<unknown> | undefined;
    for (let i = 0; i < 5; i++) last = await c.call('GET', `/scenarios/s1/results?i=${i}`);
    assert.equal(last!.headers['x-ratelimit-remaining'], '55');
    const minute = Math.floor(nowMs / 60_000);
    assert.equal(
      await t.server.store.rateLimits.leased(k.key_id, 'minute', minute),
      sliceOf(60),
      'one slice covers the first calls',
    );
    assert.equal(await t.server.store.rateLimits.leased(k.key_id, 'hour', Math.floor(minute / 60)), sliceOf(1000));
  });

  it('hides an ephemeral evaluation after 1 hour and the purge deletes it and everything derived from it', async () => {
    nowMs = Date.UTC(2026, 10, 22, 15, 0, 0);
    const submit = await t.client.call<Reply<SubmitResult>>('POST', '/evaluate', {
      blueprints: [bp([m(1, 'util:SetVariable2')])],
    });
    const id = dataOf(submit).evaluation_id;
    await pollEvaluation(t.client, id, { delaysMs: [50], timeoutMs: 20_000 });
    assert.equal(
      await t.server.store.evaluations.scenarioResults(id, 0),
      undefined,
      'ephemeral batches store no per-scenario results',
    );
    nowMs += 3599_000;
    assert.equal((await t.client.call('GET', `/evaluations/${id}?before=1`)).status, 200);
    assert.equal(await t.server.evaluations.purgeExpired(nowMs), 0);
    nowMs += 2_000;
    assert.equal((await t.client.call('GET', `/evaluations/${id}?after=1`)).status, 404);
    assert.equal(await t.server.evaluations.purgeExpired(nowMs), 1);
    assert.equal(await t.server.store.evaluations.get(id), undefined);
    assert.equal(await t.server.store.evaluations.view(id), undefined);
    assert.equal([...tablesOf(t.server.store).expirations.getKeys()].length, 0);
  });

  it("retires a stored evaluation 30 days after it completed (then 404), keeping its scenario's latest results", async () => {
    nowMs = Date.UTC(2026, 10, 23, 9, 0, 0);
    const evaluate = async () => {
      const submit = dataOf(
        await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ['s1'] }),
      );
      await pollEvaluation(t.client, submit.evaluation_id, { delaysMs: [50], timeoutMs: 20_000 });
      // Its actor leaves once the terminal write is flushed (under load, after the poll saw it); until then retention skips it as busy.
      while (t.server.evaluations.running > 0) await new Promise((r) => setTimeout(r, 10));
      return submit.evaluation_id;
    };
    const replaced = await evaluate();
    nowMs += 60_000;
    const latest = await evaluate();
    const rollup = dataOf(await t.client.call<Reply<unknown>>('GET', '/organization/rollup'));
    const retiredCount = async () => (await t.server.metrics?.evaluationsRetired.get())?.values[0]?.value ?? 0;
    const retiredBefore = await retiredCount();

    nowMs += 30 * 86_400_000 - 30_000; // the first one completed more than 30 days ago, the second not yet
    assert.equal(await t.server.evaluations.purgeRetired(), 1);
    const gone = await t.client.call<Reply<unknown>>('GET', `/evaluations/${replaced}`);
    assert.equal(gone.status, 404);
    assert.equal(failureOf(gone).error, 'Evaluation not found');
    assert.equal((await t.client.call('GET', `/evaluations/${latest}`)).status, 200);
    nowMs += 60_000;
    assert.equal(await t.server.evaluations.purgeRetired(), 1);
    assert.equal((await t.client.call('GET', `/evaluations/${latest}?after=retention`)).status, 404);

    const results = await t.client.call<Reply<ScenarioResults>>('GET', '/scenarios/s1/results?after=retention');
    assert.equal(results.status, 200);
    assert.equal(dataOf(results).evaluation_id, latest, "the scenario's latest results outlive their evaluation");
    assert.deepEqual(
      dataOf(await t.client.call<Reply<unknown>>('GET', '/organization/rollup?after=retention')),
      rollup,
    );
    if (t.server.metrics) assert.equal(await retiredCount(), retiredBefore + 2, 'gov_evaluations_retired_total');
  });

  it('result tokens expire 900 s after issue', async () => {
    nowMs = Date.UTC(2026, 10, 22, 14, 0, 0);
    const submit = dataOf(
      await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ['s1'] }),
    );
    await pollEvaluation(t.client, submit.evaluation_id, { delaysMs: [50], timeoutMs: 20_000 });
    nowMs += 901_000;
    const late = await t.client.call<Reply<ResultsFetch>>('POST', '/results/fetch', {
      result_token: submit.result_token,
    });
    assert.equal(late.status, 401);
    assert.equal(failureOf(late).error, 'Invalid, expired, or already-used result token');
  });
});
