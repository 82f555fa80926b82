/** Idempotency-Key on public POSTs over HTTP (issue 19), on both backends: replay, 422 on reuse, one of N concurrent, 5xx not stored. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { importScenario } from '../../src/actors/scenarios.js';
import type { ClientResponse } from '../../src/client/client.js';
import type { Reply, StoredSubmitResult } from '../../src/client/responses.js';
import { API_ERRORS } from '../../src/server/errors.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { redisClusterEnv } from '../helpers/redis-env.js';
import { expectError } from '../helpers/assertions.js';
import { bp, m } from '../helpers/blueprints.js';
import { dataOf } from './bodies.js';

const blueprint = bp([m(1, 'util:SetVariable2')]);

for (const backend of ['lmdb', 'redis'] as const)
  describe(`Idempotency-Key (${backend})`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(backend === 'redis' ? { env: await redisClusterEnv() } : {});
      await importScenario(t.server.store.scenarios, t.orgId, 's1', JSON.stringify(blueprint));
    });
    after(() => t.close());

    const nowS = () => Math.floor(Date.now() / 1000);
    /** POST /evaluate signed at `t` (a retry re-signs: the replay guard refuses a signature it has seen). */
    const submit = (key: string | null, tag: string, at = nowS()) =>
      t.client.call<Reply<StoredSubmitResult>>(
        'POST',
        '/evaluate',
        { scenario_ids: ['s1'], tag },
        { t: at, ...(key === null ? {} : { headers: { 'idempotency-key': key } }) },
      );
    const evaluationCount = async () => (await t.server.store.stats()).records['evaluations'] ?? 0;

    it('replays the first response to a re-signed retry, byte for byte, and creates no second evaluation', async () => {
      const key = randomUUID();
      const first = await submit(key, 'retry', nowS() - 1);
      assert.equal(first.status, 200, first.raw);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const before = await evaluationCount();
      const retry = await submit(key, 'retry');
      assert.equal(retry.status, 200, retry.raw);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.raw, first.raw, 'the stored body, byte for byte');
      assert.equal(dataOf(retry).evaluation_id, dataOf(first).evaluation_id);
      assert.ok(retry.headers['x-ratelimit-remaining'] !== undefined, 'the retry carries its own rate-limit state');
      assert.notEqual(retry.headers['x-request-id'], first.headers['x-request-id']);
      assert.equal(await evaluationCount(), before, 'no second evaluation');
    });

    it('answers 422 to the same key with a different body', async () => {
      const key = randomUUID();
      assert.equal((await submit(key, 'a', nowS() - 1)).status, 200);
      const other = await submit(key, 'b');
      expectError(other, 422, API_ERRORS.idempotencyKeyReused.error);
    });

    it('lets exactly one of 10 concurrent requests with one key run; the others get 409 or its replay', async () => {
      const key = randomUUID();
      const before = await evaluationCount();
      const base = nowS();
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => submit(key, 'burst', base - i)));
      const fresh = answers.filter((a) => a.status === 200 && a.headers['idempotent-replayed'] === undefined);
      assert.equal(fresh.length, 1, answers.map((a) => `${a.status} ${a.raw}`).join('\n'));
      const id = dataOf(fresh[0]!).evaluation_id;
      for (const a of answers) {
        if (a === fresh[0]) continue;
        if (a.status === 409) {
          expectError(a, 409, API_ERRORS.idempotencyInProgress.error);
          assert.equal(a.headers['retry-after'], '1');
        } else {
          assert.equal(a.status, 200, a.raw);
          assert.equal(a.headers['idempotent-replayed'], 'true');
          assert.equal(dataOf(a).evaluation_id, id);
        }
      }
      assert.equal((await evaluationCount()) - before, 1);
    });

    it('does not store a 5xx: the retry runs again', async () => {
      const key = randomUUID();
      const evaluations = t.server.evaluations;
      const admission = evaluations.admission.bind(evaluations);
      evaluations.admission = () => 'pool_full';
      let overloaded: ClientResponse<Reply<StoredSubmitResult>>;
      try {
        overloaded = await submit(key, 'five', nowS() - 1);
      } finally {
        evaluations.admission = admission;
      }
      expectError(overloaded, 503, API_ERRORS.overloaded.error);
      const retry = await submit(key, 'five');
      assert.equal(retry.status, 200, retry.raw);
      assert.equal(retry.headers['idempotent-replayed'], undefined);
    });

    it('stores a 4xx answer and replays it', async () => {
      const key = randomUUID();
      const body = { scenario_ids: ['nope'] };
      const first = await t.client.call('POST', '/evaluate', body, {
        t: nowS() - 1,
        headers: { 'idempotency-key': key },
      });
      expectError(first, 404, API_ERRORS.unknownScenarioIds.error + ': nope');
      const retry = await t.client.call('POST', '/evaluate', body, { headers: { 'idempotency-key': key } });
      assert.equal(retry.status, 404);
      assert.equal(retry.raw, first.raw);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
    });

    it('answers 400 to a key value that is not 1 to 255 printable ASCII characters', async () => {
      const bad = ['x'.repeat(256), 'tab\there', ''];
      for (const [i, value] of bad.entries()) {
        // Each body distinct: the signature covers the body, not the header, and the replay guard
        // refuses a signature it has seen (signing each at `nowS() - i` collided when the clock
        // ticked between two of them).
        const res = await t.client.call(
          'POST',
          '/evaluate',
          { scenario_ids: ['s1'], tag: `bad-key-${i}` },
          { headers: { 'idempotency-key': value } },
        );
        assert.equal(res.status, 400, `${JSON.stringify(value)}: ${res.raw}`);
        expectError(res, 400, API_ERRORS.idempotencyKeyInvalid.error);
      }
    });

    it('leaves requests without the header unchanged: each POST runs', async () => {
      const before = await evaluationCount();
      const a = await submit(null, 'plain', nowS() - 1);
      const b = await submit(null, 'plain');
      assert.equal(a.status, 200, a.raw);
      assert.equal(b.status, 200, b.raw);
      assert.notEqual(dataOf(a).evaluation_id, dataOf(b).evaluation_id);
      assert.equal(a.headers['idempotent-replayed'], undefined);
      assert.equal((await evaluationCount()) - before, 2);
    });
  });
