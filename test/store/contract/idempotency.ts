/** @module test/store/contract/idempotency: the contract of IdempotencyRepository: one claim of N, replay, mismatch, expiry by the caller's clock, release. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { StoredResponse } from '../../../src/store/idempotency/repository.js';
import type { BackendUnderTest } from './backend.js';
import { withBackend } from './backend.js';

/** Epoch ms (2026-11-22 10:00 UTC). */
const T = 1_795_341_600_000;
const RUNNING_MS = 60_000;
const DAY_MS = 24 * 3600_000;
const fp = (s: string): string => createHash('sha256').update(s).digest('hex');
const RESPONSE: StoredResponse = {
  status: 201,
  headers: [
    ['location', '/api/public/v1/webhooks/wh_1'],
    ['retry-after', '2'],
  ],
  body: Buffer.from('{"ok":true,"data":{"é":"\u0000x"}}', 'utf8'),
};

/** Registers the idempotency suite for `backend`. */
export function idempotencyContract(backend: BackendUnderTest): void {
  describe(`idempotency contract (${backend.name})`, () => {
    it('grants exactly one of 10 concurrent claims of one key; the others see it running', () =>
      withBackend(backend, async ({ store }) => {
        const outcomes = await Promise.all(
          Array.from({ length: 10 }, async () => store.idempotency.claim('k1', 'key-a', fp('a'), T, T + RUNNING_MS)),
        );
        assert.equal(outcomes.filter((o) => o.kind === 'claimed').length, 1);
        assert.equal(outcomes.filter((o) => o.kind === 'running').length, 9);
        const other = await store.idempotency.claim('k2', 'key-a', fp('a'), T, T + RUNNING_MS);
        assert.equal(other.kind, 'claimed', 'the scope is per API key');
      }));

    it('replays the completed response byte for byte to the same fingerprint and refuses another', () =>
      withBackend(backend, async (opened) => {
        const claim = await opened.store.idempotency.claim('k1', 'key-b', fp('b'), T, T + RUNNING_MS);
        assert.equal(claim.kind, 'claimed');
        if (claim.kind !== 'claimed') return;
        const running = await opened.store.idempotency.claim('k1', 'key-b', fp('other'), T + 1, T + RUNNING_MS);
        assert.equal(running.kind, 'mismatch', 'a different request is refused while the first runs');
        assert.equal(
          await opened.store.idempotency.complete('k1', 'key-b', 'not-the-token', RESPONSE, T, T + DAY_MS),
          false,
        );
        assert.equal(
          await opened.store.idempotency.complete('k1', 'key-b', claim.token, RESPONSE, T, T + DAY_MS),
          true,
        );
        assert.equal(
          await opened.store.idempotency.complete('k1', 'key-b', claim.token, RESPONSE, T, T + DAY_MS),
          false,
        );
        const store = await opened.reopen();
        const replay = await store.idempotency.claim('k1', 'key-b', fp('b'), T + 1000, T + 1000 + RUNNING_MS);
        assert.equal(replay.kind, 'done', 'stored responses survive a restart');
        if (replay.kind !== 'done') return;
        assert.equal(replay.response.status, 201);
        assert.deepEqual(replay.response.headers, RESPONSE.headers);
        assert.ok(Buffer.from(replay.response.body).equals(RESPONSE.body));
        assert.equal((await store.idempotency.claim('k1', 'key-b', fp('x'), T + 1000, T + 61_000)).kind, 'mismatch');
      }));

    it('expires stored responses after their span and stale running claims after theirs, by the caller clock', () =>
      withBackend(backend, async ({ store }) => {
        const first = await store.idempotency.claim('k1', 'key-c', fp('c'), T, T + RUNNING_MS);
        assert.equal(first.kind, 'claimed');
        if (first.kind !== 'claimed') return;
        assert.equal(
          (await store.idempotency.claim('k1', 'key-c', fp('c'), T + RUNNING_MS - 1, T + 2 * RUNNING_MS)).kind,
          'running',
        );
        const takeover = await store.idempotency.claim('k1', 'key-c', fp('c'), T + RUNNING_MS, T + 2 * RUNNING_MS);
        assert.equal(takeover.kind, 'claimed', "a crashed claimer's claim expires");
        if (takeover.kind !== 'claimed') return;
        assert.equal(
          await store.idempotency.complete('k1', 'key-c', first.token, RESPONSE, T + RUNNING_MS, T + DAY_MS),
          false,
          'the expired claimer cannot overwrite the new claim',
        );
        const at = T + RUNNING_MS + 10;
        assert.equal(await store.idempotency.complete('k1', 'key-c', takeover.token, RESPONSE, at, at + DAY_MS), true);
        assert.equal(
          (await store.idempotency.claim('k1', 'key-c', fp('c'), at + DAY_MS - 1, at + DAY_MS + RUNNING_MS)).kind,
          'done',
        );
        assert.equal(
          (await store.idempotency.claim('k1', 'key-c', fp('new'), at + DAY_MS, at + DAY_MS + RUNNING_MS)).kind,
          'claimed',
        );
      }));

    it('releases a running claim (a 5xx) so that a retry claims again; only with its token', () =>
      withBackend(backend, async ({ store }) => {
        const claim = await store.idempotency.claim('k1', 'key-d', fp('d'), T, T + RUNNING_MS);
        assert.equal(claim.kind, 'claimed');
        if (claim.kind !== 'claimed') return;
        assert.equal(await store.idempotency.release('k1', 'key-d', 'wrong'), false);
        assert.equal(await store.idempotency.release('k1', 'key-d', claim.token), true);
        const again = await store.idempotency.claim('k1', 'key-d', fp('d'), T + 1, T + RUNNING_MS);
        assert.equal(again.kind, 'claimed');
        if (again.kind !== 'claimed') return;
        assert.equal(await store.idempotency.complete('k1', 'key-d', again.token, RESPONSE, T + 2, T + DAY_MS), true);
        assert.equal(
          await store.idempotency.release('k1', 'key-d', again.token),
          false,
          'a stored response is not released',
        );
        assert.equal((await store.idempotency.claim('k1', 'key-d', fp('d'), T + 3, T + RUNNING_MS)).kind, 'done');
      }));

    it('sweeps records expired at the given time and keeps the others', () =>
      withBackend(backend, async ({ store }) => {
        const a = await store.idempotency.claim('k1', 'old', fp('o'), T, T + RUNNING_MS);
        const b = await store.idempotency.claim('k1', 'kept', fp('k'), T, T + RUNNING_MS);
        assert.ok(a.kind === 'claimed' && b.kind === 'claimed');
        assert.equal(await store.idempotency.complete('k1', 'kept', b.token, RESPONSE, T, T + DAY_MS), true);
        const swept = await store.idempotency.sweep(T + RUNNING_MS);
        assert.ok(swept === 0 || swept === 1, `swept ${swept}`);
        assert.equal(
          (await store.idempotency.claim('k1', 'kept', fp('k'), T + RUNNING_MS, T + 2 * RUNNING_MS)).kind,
          'done',
        );
        assert.equal(
          (await store.idempotency.claim('k1', 'old', fp('o'), T + RUNNING_MS, T + 2 * RUNNING_MS)).kind,
          'claimed',
        );
      }));
  });
}
