/**
 * A write of an evaluation that fails (issue 15: "a test makes an LMDB write fail and shows the server
 * stays up and the evaluation ends as error"). Real server, pool and LMDB; the failure is a damaged
 * webhook endpoint record (no `events`), which makes the terminal transaction that writes the
 * outbox throw, so LMDB rolls the transaction back, every time. Before issue 15 the rejection was
 * unhandled and ended the process.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importScenario } from '../../src/actors/scenarios.js';
import { STORAGE_FAILED_MESSAGE } from '../../src/actors/evaluation-actor.js';
import { pollEvaluation } from '../../src/client/client.js';
import type { EvaluationReply, PolicyCatalog, Reply, StoredSubmitResult } from '../../src/client/responses.js';
import { k } from '../../src/store/lmdb/tables.js';
import { dataOf } from '../helpers/assertions.js';
import { bp, m } from '../helpers/blueprints.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { tablesOf } from '../helpers/tables.js';

describe('a failing evaluation write', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    for (const id of ['s1', 's2']) {
      await importScenario(t.server.store.scenarios, t.orgId, id, JSON.stringify(bp([m(1, 'util:SetVariable2')])));
    }
    await tablesOf(t.server.store).webhooks.put(k(t.orgId, 'wh_damaged'), {
      webhook_id: 'wh_damaged',
      org_id: t.orgId,
      url: 'https://hooks.example.com/x',
      events: null,
      description: null,
      status: 'active',
      disabled_reason: null,
      created_at: '2026-11-23T00:00:00.000Z',
    } as never);
  });
  after(() => t.close());

  it('ends the evaluation as error, counts the failure, and the server keeps serving', async () => {
    const submit = dataOf(
      await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ['s1'] }),
    );
    const last = await pollEvaluation<EvaluationReply>(t.client, submit.evaluation_id, {
      delaysMs: [50],
      timeoutMs: 20_000,
    });
    const status = dataOf(last);
    assert.equal(status.status, 'error');
    assert.equal(last.body.ok && last.body.error, STORAGE_FAILED_MESSAGE);
    assert.deepEqual(await t.server.store.evaluations.listOpen(), [], 'the evaluation is not left open');
    const metrics = await (await fetch(`http://127.0.0.1:${t.server.opsPort}/metrics`)).text();
    assert.match(metrics, /gov_store_write_failures_total\{actor="evaluation"\} 1\b/);
    assert.equal((await t.client.call<Reply<PolicyCatalog>>('GET', '/governance/policies')).status, 200);
    // Another scenario: the same body signed within the same second would be a replay (403).
    const again = dataOf(await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ['s2'] }));
    assert.equal(
      dataOf(
        await pollEvaluation<EvaluationReply>(t.client, again.evaluation_id, { delaysMs: [50], timeoutMs: 20_000 }),
      ).status,
      'error',
    );
  });
});
