/** Worker faults (throw, process.exit, out of memory, time-out) fail one scenario; the batch completes and the server stays up. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importScenario } from '../../src/actors/scenarios.js';
import { pollEvaluation } from '../../src/client/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bp, m } from '../helpers/blueprints.js';

describe('worker faults', () => {
  let t: TestServer;
  before(async () => {
    process.env['GOV_ENABLE_FAULT_INJECTION'] = '1';
    t = await startTestServer({ env: { SCENARIO_TIMEOUT_MS: '2000', WORKER_MAX_OLD_MB: '64' } });
    for (const id of ['ok', 'boom', 'exit', 'oom', 'hang'])
      await importScenario(t.server.store.scenarios, t.orgId, id, JSON.stringify(bp([m(1, 'util:SetVariable2')])));
  });
  after(async () => {
    delete process.env['GOV_ENABLE_FAULT_INJECTION'];
    await t.close();
  });

  it('gives each failing scenario its own error and completes the batch', async () => {
    const submit = await t.client.call(
      'POST',
      '/evaluate',
      { scenario_ids: ['ok', 'boom', 'exit', 'oom', 'hang'] },
      { headers: { 'x-gov-fault': 'boom=throw,exit=exit,oom=oom,hang=hang' } },
    );
    assert.equal(submit.status, 200, submit.raw);
    const token = submit.body.data.result_token;
    const early = await t.client.call('POST', '/results/fetch', { result_token: token });
    assert.equal(early.status, 200);
    assert.equal(early.body.data.status, 'processing', 'a redemption before completion reports processing');
    const final = await pollEvaluation(t.client, submit.body.data.evaluation_id, {
      delaysMs: [100, 200],
      timeoutMs: 60_000,
    });
    const d = final.body.data;
    assert.equal(d.status, 'complete');
    const byId = Object.fromEntries(d.scenarios.map((s: any) => [s.id, s]));
    assert.equal(byId.ok.error, undefined);
    assert.equal(byId.boom.error, 'evaluation failed inside the worker');
    assert.equal(byId.exit.error, 'the evaluation worker crashed');
    assert.equal(byId.oom.error, 'evaluation exceeded the worker memory limit');
    assert.match(byId.hang.error, /time budget/);
    const redeemed = await t.client.call('POST', '/results/fetch', { result_token: token, n: 2 });
    assert.equal(redeemed.status, 200, 'the token was not consumed by the early redemption');
    assert.equal(redeemed.body.data.status, 'complete');
    const after = await t.client.call('POST', '/evaluate', { scenario_ids: ['ok'] });
    assert.equal(after.status, 200);
    assert.equal(
      (await pollEvaluation(t.client, after.body.data.evaluation_id, { delaysMs: [50], timeoutMs: 20_000 })).body.data
        .scenarios[0].error,
      undefined,
    );
  });
});
