/**
 * The evaluation lifecycle with real server processes: kill -9 during a batch of 10 and recovery,
 * durable outbox and consumed tokens across the crash, graceful SIGTERM, batch time-out, backpressure.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importScenario } from '../../src/actors/scenarios.js';
import { GovernanceClient, pollEvaluation } from '../../src/client/client.js';
import type {
  EvaluationReply,
  EvaluationStatus,
  Reply,
  ScenarioResults,
  StoredSubmitResult,
} from '../../src/client/responses.js';
import { KeyService } from '../../src/server/auth/keys.js';
import { loadServerSecrets } from '../../src/server/auth/server-secrets.js';
import { openStore } from '../../src/store/open.js';
import { startService, type ServiceProcess } from '../helpers/process.js';
import { eventOf, startReceiver } from '../helpers/receiver.js';
import { dataOf, failureOf } from '../helpers/assertions.js';
import { bp, m } from '../helpers/blueprints.js';

const IDS = Array.from({ length: 10 }, (_, i) => `s${i}`);

/** Creates an organization, a key and ten scenarios in a fresh DATA_DIR (the store is closed again before services start). */
async function prepare(): Promise<{ dataDir: string; apiKey: string; secret: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gov-life-'));
  const store = openStore(dataDir);
  const keys = new KeyService(store.organizations, loadServerSecrets(dataDir), 'gov');
  const org = await keys.createOrg('Lifecycle');
  const k = await keys.createKey(org.org_id, { perMinute: 10_000, perHour: 100_000 });
  for (const id of IDS)
    await importScenario(
      store.scenarios,
      org.org_id,
      id,
      JSON.stringify(bp([m(1, 'util:SetVariable2', { mapper: { name: id, value: 'x' } })])),
    );
  await store.close();
  return { dataDir, apiKey: k.api_key, secret: k.signing_secret };
}

describe('lifecycle across processes', () => {
  let ctx: Awaited<ReturnType<typeof prepare>>;
  let svc: ServiceProcess | null = null;
  const client = () => new GovernanceClient(svc!.baseUrl, { apiKey: ctx.apiKey, signingSecret: ctx.secret });
  before(async () => {
    ctx = await prepare();
  });
  after(async () => {
    if (svc) await svc.stop('SIGKILL');
    rmSync(ctx.dataDir, { recursive: true, force: true });
  });

  it('recovers after kill -9 during a batch of 10: re-runs only unfinished scenarios; outbox and consumed tokens survive', async () => {
    const receiver = await startReceiver((n) => ({ status: n === 1 ? 500 : 200 }));
    // The first event's retry is scheduled 2.5-5 s after its 500: after the kill, so the restarted process must deliver it.
    svc = await startService({
      DATA_DIR: ctx.dataDir,
      POOL_THREADS: '1',
      GOV_ENABLE_FAULT_INJECTION: '1',
      SCENARIO_TIMEOUT_MS: '60000',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_BACKOFF_BASE_MS: '5000',
      WEBHOOK_BACKOFF_MAX_MS: '5000',
    });
    const c = client();
    assert.equal((await c.call('POST', '/webhooks', { url: receiver.url })).status, 201);
    // A first batch completes; its event gets a 500 and waits a minute for its retry; its token is redeemed.
    const first = dataOf(await c.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ['s0'] }));
    await pollEvaluation(c, first.evaluation_id, { delaysMs: [50], timeoutMs: 20_000 });
    assert.equal((await c.call('POST', '/results/fetch', { result_token: first.result_token })).status, 200);
    await receiver.waitFor(1);
    // The batch of 10: s0..s2 evaluate, s3..s9 hang in the single worker.
    const hang = IDS.slice(3)
      .map((id) => `${id}=hang`)
      .join(',');
    const batch = await c.call<Reply<StoredSubmitResult>>(
      'POST',
      '/evaluate',
      { scenario_ids: IDS },
      { headers: { 'x-gov-fault': hang } },
    );
    assert.equal(batch.status, 200, batch.raw);
    const evaluationId = dataOf(batch).evaluation_id;
    let status: EvaluationStatus | undefined;
    for (let i = 0; i < 100; i++) {
      status = dataOf(await c.call<EvaluationReply>('GET', `/evaluations/${evaluationId}`));
      if (status.completed >= 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(status, 'polled at least once');
    assert.ok(status.completed >= 2 && status.completed <= 3, `completed ${status.completed}`);
    assert.equal(status.status, 'processing');
    // Which scenarios finished before the crash (the pool does not promise an order): their stored results name this batch.
    const finished: Record<string, string | undefined> = {};
    for (const id of IDS) {
      const r = dataOf(await c.call<Reply<ScenarioResults>>('GET', `/scenarios/${id}/results`));
      if (r.evaluation_id === evaluationId) finished[id] = r.evaluated_at;
    }
    assert.equal(Object.keys(finished).length, status.completed);
    const killed = await svc.stop('SIGKILL');
    assert.equal(killed.signal, 'SIGKILL');

    svc = await startService({
      DATA_DIR: ctx.dataDir,
      POOL_THREADS: '1',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_BACKOFF_BASE_MS: '50',
    });
    const c2 = client();
    const done = dataOf(
      await pollEvaluation<EvaluationReply>(c2, evaluationId, { delaysMs: [100], timeoutMs: 30_000 }),
    );
    assert.equal(done.status, 'complete');
    assert.equal(done.completed, 10);
    assert.ok(
      done.scenarios?.every((s) => s.error === undefined),
      JSON.stringify(done.scenarios),
    );
    for (const id of IDS) {
      const r = dataOf(await c2.call<Reply<ScenarioResults>>('GET', `/scenarios/${id}/results`));
      assert.equal(r.evaluation_id, evaluationId, id);
      if (finished[id]) assert.equal(r.evaluated_at, finished[id], `${id} finished before the crash and is not re-run`);
    }
    const again = await c2.call('POST', '/results/fetch', { result_token: first.result_token, attempt: 2 }); // a distinct body: an identical one within the second is a replay (403)
    assert.equal(again.status, 401, `the consumed-token record survived: ${again.raw}`);
    // The event left pending by the crash is delivered after the restart, then the batch's own event.
    await receiver.waitFor(3, 20_000);
    const events = receiver.received.map((r) => eventOf(r).data.evaluation_id);
    assert.deepEqual([...new Set(events)].sort(), [first.evaluation_id, evaluationId].sort());
    await svc.stop('SIGTERM');
    svc = null;
    await receiver.close();
  });

  it('exits 0 on SIGTERM within the deadline and resumes the interrupted batch on the next start', async () => {
    svc = await startService({
      DATA_DIR: ctx.dataDir,
      POOL_THREADS: '1',
      GOV_ENABLE_FAULT_INJECTION: '1',
      SCENARIO_TIMEOUT_MS: '60000',
      SHUTDOWN_DEADLINE_MS: '1000',
    });
    const c = client();
    const batch = await c.call<Reply<StoredSubmitResult>>(
      'POST',
      '/evaluate',
      { scenario_ids: ['s4', 's5'] },
      { headers: { 'x-gov-fault': 's4=hang,s5=hang' } },
    );
    assert.equal(batch.status, 200);
    await new Promise((r) => setTimeout(r, 200));
    const stopped = await svc.stop('SIGTERM');
    assert.equal(stopped.code, 0, 'graceful exit code');
    assert.ok(stopped.ms < 5000, `stopped in ${stopped.ms} ms`);
    svc = await startService({ DATA_DIR: ctx.dataDir, POOL_THREADS: '1' });
    const done = await pollEvaluation<EvaluationReply>(client(), dataOf(batch).evaluation_id, {
      delaysMs: [100],
      timeoutMs: 30_000,
    });
    assert.equal(dataOf(done).status, 'complete');
    await svc.stop('SIGTERM');
    svc = null;
  });

  it('ends a batch that cannot finish in time with error and a reason, and refuses work beyond the queue with 503', async () => {
    svc = await startService({
      DATA_DIR: ctx.dataDir,
      POOL_THREADS: '1',
      POOL_MAX_QUEUE: '2',
      GOV_ENABLE_FAULT_INJECTION: '1',
      SCENARIO_TIMEOUT_MS: '30000',
      EVALUATION_TIMEOUT_MS: '800',
    });
    const c = client();
    const full = await c.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: IDS });
    assert.equal(full.status, 503);
    assert.equal(failureOf(full).error, 'Evaluation capacity exhausted');
    assert.ok(Number(full.headers['retry-after']) > 0);
    const batch = await c.call<Reply<StoredSubmitResult>>(
      'POST',
      '/evaluate',
      { scenario_ids: ['s6', 's7'] },
      { headers: { 'x-gov-fault': 's6=hang,s7=hang' } },
    );
    assert.equal(batch.status, 200);
    const busy = await c.call('POST', '/evaluate', { scenario_ids: ['s8', 's9'] });
    assert.equal(busy.status, 503, 'the queue is full while the hung batch holds it');
    const done = await pollEvaluation<EvaluationReply>(c, dataOf(batch).evaluation_id, {
      delaysMs: [100],
      timeoutMs: 10_000,
    });
    assert.equal(done.body.ok, true, done.raw);
    assert.equal(done.body.data.status, 'error');
    assert.match(done.body.data.error ?? '', /did not finish within 800 ms/);
    assert.equal(done.body.error, done.body.data.error);
    await svc.stop('SIGKILL');
    svc = null;
  });
});
