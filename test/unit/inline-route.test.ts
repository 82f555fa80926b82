/**
 * `POST /evaluate/inline` answers each way an inline task can end by its tagged `code` (issue 15,
 * "Typed errors"): the worker's `invalid` result, each pool `TaskFailure`, and `pool_closed`; the
 * outcome metric is labelled with the same code. Driven without a socket, on a fake pool.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { inlineRoute } from '../../src/server/routes/inline.js';
import { Metrics } from '../../src/server/metrics.js';
import { API_ERRORS } from '../../src/server/errors.js';
import { DEFAULT_GOVERNANCE, WORKER_ERROR_MESSAGE, type InlineTaskResult } from '../../src/actors/worker-protocol.js';
import type { TaskFailure } from '../../src/actors/task-failure.js';
import type { RouteDeps } from '../../src/server/routes/deps.js';
import type { ApiRequest, RequestContext } from '../../src/server/http/types.js';

const request = { takeBody: () => new Uint8Array(Buffer.from('{}')) } as unknown as ApiRequest;
const context = (): RequestContext => ({
  key: { org_id: 'org-1' } as RequestContext['key'],
  watermark: 'wm',
  rate: null,
  params: {},
  template: null,
  clientIp: null,
});

async function answer(result: InlineTaskResult | TaskFailure) {
  const metrics = new Metrics({ defaultMetrics: false });
  const pool = { admission: () => 'ok', runInline: () => Promise.resolve(result) };
  const evaluations = { governance: { current: () => Promise.resolve(DEFAULT_GOVERNANCE) } };
  const deps = { pool, metrics, evaluations, now: () => 0 } as unknown as RouteDeps;
  const res = await inlineRoute(deps).handle(request, context());
  const outcomes = Object.fromEntries(
    (await metrics.scenarios.get()).values.map((v): [string, number] => [String(v.labels['outcome']), v.value]),
  );
  return { res, body: JSON.parse(String(res.body)) as { error: string; detail: unknown }, outcomes };
}

it("answers an invalid body with the worker's field errors, counted as invalid", async () => {
  const detail = [{ path: '/blueprint/flow', message: 'must be array' }];
  const { res, body, outcomes } = await answer({ ok: false, code: 'invalid', detail });
  assert.equal(res.status, API_ERRORS.invalidBody.status);
  assert.deepEqual(body, { ok: false, error: API_ERRORS.invalidBody.error, detail });
  assert.deepEqual(outcomes, { invalid: 1 });
});

it('answers each task failure with its message at /blueprint, counted under its code', async () => {
  for (const failure of [
    { ok: false, code: 'timeout', message: 'evaluation exceeded its time budget of 5 ms' },
    { ok: false, code: 'out_of_memory', message: 'evaluation exceeded the worker memory limit' },
    { ok: false, code: 'worker_crashed', message: 'the evaluation worker crashed' },
    { ok: false, code: 'worker_error', message: WORKER_ERROR_MESSAGE },
  ] as const satisfies readonly TaskFailure[]) {
    const { res, body, outcomes } = await answer(failure);
    assert.equal(res.status, API_ERRORS.invalidBody.status, failure.code);
    assert.deepEqual(
      body.detail,
      [{ path: '/blueprint', message: `could not be evaluated: ${failure.message}` }],
      failure.code,
    );
    assert.deepEqual(outcomes, { [failure.code]: 1 });
  }
});

it('answers pool_closed with 503 and Retry-After, closing the connection, uncounted', async () => {
  const { res, body, outcomes } = await answer({
    ok: false,
    code: 'pool_closed',
    message: 'the evaluation pool was closed (shutdown)',
  });
  assert.equal(res.status, API_ERRORS.shuttingDown.status);
  assert.equal(body.error, API_ERRORS.shuttingDown.error);
  assert.equal(res.close, true);
  assert.ok(res.headers?.some(([name]) => name === 'retry-after'));
  assert.deepEqual(outcomes, {});
});
