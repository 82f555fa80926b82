/** @module test/store/contract/sign-in-throttle: the contract of SignInThrottleRepository: counting windows, locks, resets, concurrent failures. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BackendUnderTest } from './backend.js';
import { withBackend } from './backend.js';
import { T0 } from './fixtures.js';

const WINDOW = 15 * 60_000;
const LOCK = 15 * 60_000;
const ACCOUNT = { key: 'account:ann@example.com', limit: 5 };
const ADDRESS = { key: 'ip:203.0.113.7', limit: 20 };

/** Registers the sign-in throttle suite for `backend`. */
export function signInThrottleContract(backend: BackendUnderTest): void {
  describe(`sign-in throttle contract (${backend.name})`, () => {
    it('counts failures per key and locks a key for lockMs at its limit, the others staying open', () =>
      withBackend(backend, async ({ store }) => {
        const throttle = store.signInThrottle;
        assert.equal(await throttle.lockedUntil([ACCOUNT.key, ADDRESS.key], T0), null);
        for (let i = 1; i <= 4; i++) {
          const counts = await throttle.recordFailure([ACCOUNT, ADDRESS], T0 + i, WINDOW, LOCK);
          assert.deepEqual(counts, [
            { count: i, lockedUntil: null },
            { count: i, lockedUntil: null },
          ]);
        }
        assert.equal(await throttle.lockedUntil([ACCOUNT.key], T0 + 5), null);
        const fifth = await throttle.recordFailure([ACCOUNT, ADDRESS], T0 + 5, WINDOW, LOCK);
        assert.deepEqual(fifth, [
          { count: 5, lockedUntil: T0 + 5 + LOCK },
          { count: 5, lockedUntil: null },
        ]);
        assert.equal(await throttle.lockedUntil([ACCOUNT.key, ADDRESS.key], T0 + 6), T0 + 5 + LOCK);
        assert.equal(await throttle.lockedUntil([ADDRESS.key], T0 + 6), null);
        assert.equal(await throttle.lockedUntil(['account:other@example.com'], T0 + 6), null);
        // A failure while locked does not extend the lock.
        const sixth = await throttle.recordFailure([ACCOUNT], T0 + 60_000, WINDOW, LOCK);
        assert.deepEqual(sixth, [{ count: 6, lockedUntil: T0 + 5 + LOCK }]);
        assert.equal(await throttle.lockedUntil([ACCOUNT.key], T0 + 5 + LOCK), null, 'the lock ends at lockedUntil');
      }));

    it('starts a new window after windowMs, and reset forgets a key', () =>
      withBackend(backend, async ({ store }) => {
        const throttle = store.signInThrottle;
        await throttle.recordFailure([ACCOUNT], T0, WINDOW, LOCK);
        await throttle.recordFailure([ACCOUNT], T0 + 1000, WINDOW, LOCK);
        assert.deepEqual(await throttle.recordFailure([ACCOUNT], T0 + WINDOW, WINDOW, LOCK), [
          { count: 1, lockedUntil: null },
        ]);
        for (let i = 0; i < 4; i++) await throttle.recordFailure([ACCOUNT], T0 + WINDOW + i, WINDOW, LOCK);
        assert.ok((await throttle.lockedUntil([ACCOUNT.key], T0 + WINDOW + 10)) !== null);
        await throttle.reset(ACCOUNT.key);
        assert.equal(await throttle.lockedUntil([ACCOUNT.key], T0 + WINDOW + 10), null);
        assert.deepEqual(await throttle.recordFailure([ACCOUNT], T0 + WINDOW + 11, WINDOW, LOCK), [
          { count: 1, lockedUntil: null },
        ]);
        await throttle.reset('account:never-seen@example.com');
      }));

    it('counts every one of 10 concurrent failures, and the one reaching the limit locks', () =>
      withBackend(backend, async ({ store }) => {
        const throttle = store.signInThrottle;
        const key = { key: 'ip:198.51.100.1', limit: 10 };
        const all = await Promise.all(
          Array.from({ length: 10 }, () => throttle.recordFailure([key], T0, WINDOW, LOCK)),
        );
        assert.deepEqual(
          all.map(([c]) => c!.count).sort((a, b) => a - b),
          Array.from({ length: 10 }, (_, i) => i + 1),
        );
        assert.equal(all.filter(([c]) => c!.count === 10 && c!.lockedUntil === T0 + LOCK).length, 1);
        assert.equal(await throttle.lockedUntil([key.key], T0 + 1), T0 + LOCK);
      }));

    it('keeps keys apart whatever their characters', () =>
      withBackend(backend, async ({ store }) => {
        const throttle = store.signInThrottle;
        const keys = ['account:a', 'account:a:b', 'account:{x}', `account:${'l'.repeat(80)}`, 'account:jörg@例え.jp'];
        for (const [i, key] of keys.entries())
          for (let n = 0; n <= i; n++) await throttle.recordFailure([{ key, limit: 100 }], T0, WINDOW, LOCK);
        for (const [i, key] of keys.entries())
          assert.deepEqual(await throttle.recordFailure([{ key, limit: 100 }], T0, WINDOW, LOCK), [
            { count: i + 2, lockedUntil: null },
          ]);
      }));
  });
}
