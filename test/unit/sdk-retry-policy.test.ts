/** The SDK's retry matrix as a pure decision (spec §7), its backoff and jitter with an injected random, Retry-After parsing and the polling schedule (§8 rule 4). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  GovernanceApiError,
  IDEMPOTENT_IN_PROGRESS,
  parseRetryAfter,
  pollDelay,
  REMEDIATION_FAILED,
  retryDecision,
  type AttemptOutcome,
  type RetryCounts,
} from '@gov/sdk';

const policy = DEFAULT_RETRY_POLICY;
const none: RetryCounts = { network: 0, remediation: 0, rateLimit: 0 };
const answer = (status: number, error?: string, retryAfterS?: number): AttemptOutcome => ({
  type: 'answer',
  status,
  error,
  retryAfterS,
});

describe('SDK retry decision (spec §7 retry matrix)', () => {
  it('backs off exponentially with equal jitter: half fixed, half from random, capped at maxDelayMs', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => backoffDelay(policy, n, 0)),
      [250, 500, 1000, 2000],
    );
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => backoffDelay(policy, n, 0.999999)),
      [500, 1000, 2000, 4000],
    );
    assert.equal(backoffDelay(policy, 10, 0.5), 6000, 'capped at 8000 ms, then 3/4 of it');
  });

  it('retries network errors 3 times with the backoff, then stops', () => {
    const network: AttemptOutcome = { type: 'network' };
    assert.deepEqual(
      retryDecision(policy, network, none, true, () => 0.5),
      { retryClass: 'network', delayMs: 375 },
    );
    assert.deepEqual(
      retryDecision(policy, network, { ...none, network: 2 }, true, () => 0),
      {
        retryClass: 'network',
        delayMs: 1000,
      },
    );
    assert.equal(
      retryDecision(policy, network, { ...none, network: 3 }, true, () => 0),
      null,
    );
  });

  it('retries 500 Remediation generation failed 3 times; every other 500 never', () => {
    assert.deepEqual(
      retryDecision(policy, answer(500, REMEDIATION_FAILED), none, false, () => 0),
      {
        retryClass: 'remediation',
        delayMs: 250,
      },
    );
    assert.equal(
      retryDecision(policy, answer(500, REMEDIATION_FAILED), { ...none, remediation: 3 }, false, () => 0),
      null,
    );
    assert.equal(
      retryDecision(policy, answer(500, 'Internal server error'), none, false, () => 0),
      null,
    );
  });

  it('waits Retry-After plus up to 250 ms of jitter on 429 (backoff without the header), at most 3 times', () => {
    assert.deepEqual(
      retryDecision(policy, answer(429, 'Rate limit exceeded', 7), none, false, () => 0.5),
      {
        retryClass: 'rateLimit',
        delayMs: 7125,
      },
    );
    assert.deepEqual(
      retryDecision(policy, answer(429, 'Rate limit exceeded'), none, false, () => 0),
      {
        retryClass: 'rateLimit',
        delayMs: 250,
      },
    );
    assert.equal(
      retryDecision(policy, answer(429, 'Rate limit exceeded', 1), { ...none, rateLimit: 3 }, false, () => 0),
      null,
    );
  });

  it('never retries other answers: 400, 401, 403, 404, 409, 412, 413, 422, 503', () => {
    for (const status of [400, 401, 403, 404, 409, 412, 413, 422, 503])
      assert.equal(
        retryDecision(policy, answer(status, 'x', 1), none, false, () => 0),
        null,
        String(status),
      );
  });

  it('waits out 409 Idempotent request in progress only after its own network error, from the network budget', () => {
    const inProgress = answer(409, IDEMPOTENT_IN_PROGRESS, 1);
    assert.equal(
      retryDecision(policy, inProgress, none, false, () => 0),
      null,
      'not after a clean first attempt',
    );
    assert.deepEqual(
      retryDecision(policy, inProgress, { ...none, network: 1 }, true, () => 0),
      {
        retryClass: 'network',
        delayMs: 1000,
      },
    );
    assert.equal(
      retryDecision(policy, inProgress, { ...none, network: 3 }, true, () => 0),
      null,
    );
  });

  it('parses Retry-After as delta-seconds or an HTTP-date', () => {
    const now = Date.UTC(2026, 0, 1, 0, 0, 0);
    assert.equal(parseRetryAfter('55', now), 55);
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now), 30);
    assert.equal(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter(null, now), undefined);
    assert.equal(parseRetryAfter('soon', now), undefined);
  });
});

describe('SDK polling schedule (spec §8 rule 4)', () => {
  it('polls every 2 s below 5 scenarios and backs off 2, 3, 5, 8, 8 s from 5', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => pollDelay(n, 4)),
      [2000, 2000, 2000, 2000, 2000],
    );
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((n) => pollDelay(n, 5)),
      [2000, 3000, 5000, 8000, 8000, 8000],
    );
    assert.equal(pollDelay(3, undefined), 2000);
    assert.deepEqual(
      [1, 2, 3].map((n) => pollDelay(n, 10, [50, 100])),
      [50, 100, 100],
    );
  });
});

describe('GovernanceApiError', () => {
  it('reads error, detail[], the string detail or legacy message, request_id and retryAfter from the envelope', () => {
    const headers = new Headers({ 'x-request-id': 'req-header' });
    const invalid = new GovernanceApiError(
      422,
      {
        ok: false,
        error: 'Invalid request body',
        detail: [{ path: '/scenario_ids', message: 'must NOT have fewer than 1 items' }],
      },
      headers,
      undefined,
      1,
    );
    assert.equal(invalid.kind, 'api');
    assert.deepEqual(invalid.detail, [{ path: '/scenario_ids', message: 'must NOT have fewer than 1 items' }]);
    assert.equal(invalid.requestId, 'req-header');
    const crash = new GovernanceApiError(
      500,
      { ok: false, error: 'Internal server error', message: 'legacy text', request_id: 'req-body' },
      headers,
      undefined,
      1,
    );
    assert.equal(crash.description, 'legacy text');
    assert.equal(crash.requestId, 'req-body');
    assert.deepEqual(crash.detail, []);
    const edge = new GovernanceApiError(502, '<html>bad gateway</html>', new Headers(), 3, 2);
    assert.equal(edge.error, 'HTTP 502');
    assert.equal(edge.retryAfter, 3);
    assert.equal(edge.attempts, 2);
  });
});
