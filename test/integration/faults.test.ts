/** Worker faults (throw, process.exit, out of memory, time-out) fail one scenario; the batch completes and the server stays up. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importScenario } from '../../src/actors/scenarios.js';
import { pollEvaluation } from '../../src/client/client.js';
import type { EvaluationStatus, Reply, ResultsFetch, StoredSubmitResult } from '../../src/client/responses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bp, m } from '../helpers/blueprints.js';
import { dataOf } from './bodies.js';

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
    const submit = await t.client.call<Reply<StoredSubmitResult>>(
      'POST',
      '/evaluate',
      { scenario_ids: ['ok', 'boom', 'exit', 'oom', 'hang'] },
      { headers: { 'x-gov-fault': 'boom=throw,exit=exit,oom=oom,hang=hang' } },
    );
    assert.equal(submit.status, 200, submit.raw);
    const { result_token: token, evaluation_id: evaluationId } = dataOf(submit);
    const early = await t.client.call<Reply<ResultsFetch>>('POST', '/results/fetch', { result_token: token });
    assert.equal(early.status, 200);
    assert.equal(dataOf(early).status, 'processing', 'a redemption before completion reports processing');
    const final = await pollEvaluation<Reply<EvaluationStatus>>(t.client, evaluationId, {
      delaysMs: [100, 200],
      timeoutMs: 60_000,
    });
    const d = dataOf(final);
    assert.equal(d.status, 'complete');
    const byId = new Map(d.scenarios?.map((s) => [s.id, s]));
    const errorOf = (id: string): string | undefined => {
      const scenario = byId.get(id);
      assert.ok(scenario, `scenario ${id} is reported`);
      return scenario.error;
    };
    assert.equal(errorOf('ok'), undefined);
    assert.equal(errorOf('boom'), 'evaluation failed inside the worker');
    assert.equal(errorOf('exit'), 'the evaluation worker crashed');
    assert.equal(errorOf('oom'), 'evaluation exceeded the worker memory limit');
    assert.match(errorOf('hang') ?? '', /time budget/);
    const redeemed = await t.client.call<Reply<ResultsFetch>>('POST', '/results/fetch', { result_token: token, n: 2 });
    assert.equal(redeemed.status, 200, 'the token was not consumed by the early redemption');
    assert.equal(dataOf(redeemed).status, 'complete');
    const after = await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ['ok'] });
    assert.equal(after.status, 200);
    const afterDone = await pollEvaluation<Reply<EvaluationStatus>>(t.client, dataOf(after).evaluation_id, {
      delaysMs: [50],
      timeoutMs: 20_000,
    });
    const [only] = dataOf(afterDone).scenarios ?? [];
    assert.ok(only, 'the scenario is reported');
    assert.equal(only.error, undefined);
  });
});
