/** @module test/store/contract/rate-leases: the contract of RateLeases (store.rateLimits): grants never exceed the limit per window, in total. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import type { BackendUnderTest } from './backend.js';
import { withBackend } from './backend.js';

/** A minute id and an hour id (2026-11-22 10:00 UTC). */
const MINUTE = Date.UTC(2026, 10, 22, 10, 0) / 60_000;
const HOUR = MINUTE / 60;

/** Registers the rate leases suite for `backend`. */
export function rateLeasesContract(backend: BackendUnderTest): void {
  describe(`rate leases contract (${backend.name})`, () => {
    it('grants min(want, limit − leased) and records it; never more than the limit in total', () =>
      withBackend(backend, async ({ store }) => {
        const leases = store.rateLimits;
        assert.equal(await leases.leased('key_1', 'minute', MINUTE), 0);
        assert.deepEqual(await leases.take('key_1', 'minute', MINUTE, 4, 10), { granted: 4, leased: 4 });
        assert.deepEqual(await leases.take('key_1', 'minute', MINUTE, 5, 10), { granted: 5, leased: 9 });
        assert.deepEqual(await leases.take('key_1', 'minute', MINUTE, 5, 10), { granted: 1, leased: 10 });
        assert.deepEqual(await leases.take('key_1', 'minute', MINUTE, 1, 10), { granted: 0, leased: 10 });
        assert.equal(await leases.leased('key_1', 'minute', MINUTE), 10);
        // Windows, kinds and keys are independent (key ids that are prefixes of each other included).
        assert.deepEqual(await leases.take('key_1', 'hour', MINUTE, 3, 10), { granted: 3, leased: 3 });
        assert.deepEqual(await leases.take('key_1', 'minute', MINUTE + 1, 3, 10), { granted: 3, leased: 3 });
        assert.deepEqual(await leases.take('key_10', 'minute', MINUTE, 3, 10), { granted: 3, leased: 3 });
        assert.equal(await leases.leased('key_1', 'minute', MINUTE), 10);
      }));

    it('keeps leased budget across a reopen (a restarted process gets no fresh budget)', () =>
      withBackend(backend, async (opened) => {
        assert.equal((await opened.store.rateLimits.take('key_1', 'minute', MINUTE, 8, 10)).granted, 8);
        const store = await opened.reopen();
        assert.equal(await store.rateLimits.leased('key_1', 'minute', MINUTE), 8);
        assert.deepEqual(await store.rateLimits.take('key_1', 'minute', MINUTE, 8, 10), { granted: 2, leased: 10 });
      }));

    it('grants at most the limit to 25 interleaved callers taking in a loop', () =>
      withBackend(backend, async ({ store }) => {
        const leases = store.rateLimits;
        const limit = 97;
        const grants = await Promise.all(
          Array.from({ length: 25 }, async (_, caller) => {
            let total = 0;
            for (let i = 0; i < 8; i++) {
              await turn();
              total += (await leases.take('key_1', 'minute', MINUTE, 1 + ((caller + i) % 4), limit)).granted;
              total += (await leases.take('key_1', 'hour', HOUR, 2, 30)).granted;
            }
            return total;
          }),
        );
        const total = grants.reduce((a, b) => a + b, 0);
        assert.equal(
          total,
          limit + 30,
          'the callers wanted more than both budgets, so both were handed out, and no more',
        );
        assert.equal(await leases.leased('key_1', 'minute', MINUTE), limit);
        assert.equal(await leases.leased('key_1', 'hour', HOUR), 30);
      }));

    it('takes back released budget, and grants nothing under a lowered limit while leased ≥ limit', () =>
      withBackend(backend, async ({ store }) => {
        const leases = store.rateLimits;
        assert.equal((await leases.take('key_1', 'minute', MINUTE, 10, 10)).granted, 10);
        await leases.release('key_1', 'minute', MINUTE, 4);
        assert.equal(await leases.leased('key_1', 'minute', MINUTE), 6);
        assert.deepEqual(await leases.take('key_1', 'minute', MINUTE, 10, 10), { granted: 4, leased: 10 });
        await leases.release('key_1', 'minute', MINUTE, 0);
        assert.equal(await leases.leased('key_1', 'minute', MINUTE), 10);
        assert.deepEqual(
          await leases.take('key_1', 'minute', MINUTE, 1, 5),
          { granted: 0, leased: 10 },
          'limit lowered to 5',
        );
        await leases.release('key_1', 'minute', MINUTE, 3);
        assert.deepEqual(await leases.take('key_1', 'minute', MINUTE, 1, 5), { granted: 0, leased: 7 });
        await leases.release('key_1', 'minute', MINUTE, 4);
        assert.deepEqual(await leases.take('key_1', 'minute', MINUTE, 5, 5), { granted: 2, leased: 5 });
        await leases.release('key_1', 'minute', MINUTE, 100);
        assert.equal(await leases.leased('key_1', 'minute', MINUTE), 0, 'never below 0');
        await leases.release('key_2', 'minute', MINUTE, 3);
        assert.equal(
          await leases.leased('key_2', 'minute', MINUTE),
          0,
          'releasing into a window never granted grants nothing',
        );
      }));

    it("drops windows before the previous one at a window's first grant", () =>
      withBackend(backend, async ({ store }) => {
        const leases = store.rateLimits;
        for (const w of [MINUTE, MINUTE + 1]) await leases.take('key_1', 'minute', w, 5, 10);
        await leases.take('key_1', 'hour', HOUR, 5, 10);
        await leases.take('key_1', 'minute', MINUTE + 2, 1, 10);
        assert.equal(await leases.leased('key_1', 'minute', MINUTE), 0);
        assert.equal(await leases.leased('key_1', 'minute', MINUTE + 1), 5, 'the previous window stays');
        assert.equal(await leases.leased('key_1', 'minute', MINUTE + 2), 1);
        assert.equal(await leases.leased('key_1', 'hour', HOUR), 5, 'the other kind is untouched');
        await leases.release('key_1', 'minute', MINUTE, 5);
        assert.equal(await leases.leased('key_1', 'minute', MINUTE), 0, 'no effect once the window was removed');
        const long = `key_${'k'.repeat(70)}`;
        for (const w of [MINUTE, MINUTE + 1, MINUTE + 2, MINUTE + 3]) await leases.take(long, 'minute', w, 2, 10);
        const leased: number[] = [];
        for (const w of [MINUTE, MINUTE + 1, MINUTE + 2, MINUTE + 3])
          leased.push(await leases.leased(long, 'minute', w));
        assert.deepEqual(leased, [0, 0, 2, 2], 'long key ids too');
      }));
  });
}
