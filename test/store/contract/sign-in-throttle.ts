/**
 * @module test/store/contract/sign-in-throttle: the contract of SignInThrottleRepository: attempts
 * reserved before they are verified, locks, what a success forgives, windows, and concurrent
 * reservations that never exceed a limit (issue 31, item 2).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type {
  ReservedKey,
  SignInThrottleRepository,
  ThrottleKey,
  ThrottleReservation,
} from '../../../src/store/sign-in/repository.js';
import type { BackendUnderTest } from './backend.js';
import { withBackend } from './backend.js';
import { T0 } from './fixtures.js';

const WINDOW = 15 * 60_000;
const LOCK = 15 * 60_000;
const ACCOUNT: ThrottleKey = { key: 'account:ann@example.com', limit: 5, forgive: true };
const ADDRESS: ThrottleKey = { key: 'ip:203.0.113.7', limit: 20, forgive: false };
const account = (i: number): ThrottleKey => ({ key: `account:user${i}@example.com`, limit: 5, forgive: true });

/** The reserved keys of an admitted reservation (fails on a refusal). */
function admitted(r: ThrottleReservation): readonly ReservedKey[] {
  assert.ok(r.admitted, `refused: ${JSON.stringify(r)}`);
  return r.keys;
}

/** Reserves `keys` one after the other at `at` until refused; returns how many were admitted (each settled as a failure when `fail`). */
async function admitUntilRefused(
  throttle: SignInThrottleRepository,
  keys: readonly ThrottleKey[],
  at: number,
  fail = true,
): Promise<number> {
  for (let n = 0; n < 100; n++) {
    const r = await throttle.reserve(keys, at, WINDOW, LOCK);
    if (!r.admitted) return n;
    if (fail) await throttle.settle(r.keys, 'failure');
  }
  assert.fail('never refused');
}

/** Registers the sign-in throttle suite for `backend`. */
export function signInThrottleContract(backend: BackendUnderTest): void {
  describe(`sign-in throttle contract (${backend.name})`, () => {
    it('counts an attempt when it is reserved, locks with the one reaching the limit, and refuses later ones counting nothing', () =>
      withBackend(backend, async ({ store }) => {
        const throttle = store.signInThrottle;
        assert.equal(await throttle.lockedUntil([ACCOUNT.key, ADDRESS.key], T0), null);
        for (let i = 1; i <= 4; i++) {
          const keys = admitted(await throttle.reserve([ADDRESS, ACCOUNT], T0 + i, WINDOW, LOCK));
          assert.deepEqual(
            keys.map((k) => [k.key, k.limit, k.forgive, k.seen]),
            [
              [ADDRESS.key, 20, false, i - 1],
              [ACCOUNT.key, 5, true, i - 1],
            ],
          );
          await throttle.settle(keys, 'failure');
        }
        assert.equal(await throttle.lockedUntil([ACCOUNT.key], T0 + 5), null);
        const fifth = admitted(await throttle.reserve([ADDRESS, ACCOUNT], T0 + 5, WINDOW, LOCK));
        // Locked while the fifth password is still being verified.
        assert.equal(await throttle.lockedUntil([ACCOUNT.key, ADDRESS.key], T0 + 6), T0 + 5 + LOCK);
        assert.equal(await throttle.lockedUntil([ADDRESS.key], T0 + 6), null);
        assert.deepEqual(await throttle.reserve([ADDRESS, ACCOUNT], T0 + 6, WINDOW, LOCK), {
          admitted: false,
          lockedUntil: T0 + 5 + LOCK,
        });
        await throttle.settle(fifth, 'failure');
        assert.equal(await throttle.lockedUntil([ACCOUNT.key], T0 + 60_000), T0 + 5 + LOCK, 'a failure keeps the lock');
        // The refused attempt counted nowhere: the address has 5 of its 20.
        assert.equal(await admitUntilRefused(throttle, [ADDRESS], T0 + 7), 15);
        assert.equal(await throttle.lockedUntil([ACCOUNT.key], T0 + 5 + LOCK), null, 'the lock ends at lockedUntil');
      }));

    it("a success forgives its account's earlier failures and lifts the lock, and only withdraws itself from the address", () =>
      withBackend(backend, async ({ store }) => {
        const throttle = store.signInThrottle;
        assert.equal(await admitUntilRefused(throttle, [ADDRESS, ACCOUNT], T0), 5);
        const other = account(1);
        for (let i = 0; i < 3; i++)
          await throttle.settle(admitted(await throttle.reserve([ADDRESS, other], T0, WINDOW, LOCK)), 'failure');
        // The address: 8 failures; the right password of `other` reaches its limit of 5 and locks it meanwhile.
        const right = admitted(await throttle.reserve([ADDRESS, other], T0 + 1, WINDOW, LOCK));
        assert.deepEqual(
          right.map((k) => k.seen),
          [8, 3],
        );
        await throttle.settle(admitted(await throttle.reserve([ADDRESS, other], T0 + 1, WINDOW, LOCK)), 'failure');
        assert.equal(await throttle.lockedUntil([other.key], T0 + 2), T0 + 1 + LOCK);
        await throttle.settle(right, 'success');
        assert.equal(await throttle.lockedUntil([other.key, ADDRESS.key], T0 + 2), null);
        // Forgiven: the 3 failures before it; counted: the one of the attempt concurrent with it.
        assert.equal(await admitUntilRefused(throttle, [other], T0 + 3), 4);
        // The address kept its 9 failures: the success withdrew only itself.
        assert.equal(await admitUntilRefused(throttle, [ADDRESS], T0 + 3), 11);
      }));

    it('a success forgives only failures settled before it was reserved', () =>
      withBackend(backend, async ({ store }) => {
        const throttle = store.signInThrottle;
        const before = admitted(await throttle.reserve([ACCOUNT], T0, WINDOW, LOCK));
        await throttle.settle(before, 'failure');
        const during = admitted(await throttle.reserve([ACCOUNT], T0, WINDOW, LOCK));
        const success = admitted(await throttle.reserve([ACCOUNT], T0, WINDOW, LOCK));
        assert.equal(success[0]!.seen, 1);
        const after = admitted(await throttle.reserve([ACCOUNT], T0, WINDOW, LOCK));
        await throttle.settle(during, 'failure');
        await throttle.settle(success, 'success');
        await throttle.settle(after, 'failure');
        // `before` forgiven; `during` and `after` counted: 3 more attempts.
        assert.equal(await admitUntilRefused(throttle, [ACCOUNT], T0 + 1), 3);
      }));

    it('starts a new window after windowMs, ignores settlements of an ended window, and forgets a key with nothing counted', () =>
      withBackend(backend, async ({ store }) => {
        const throttle = store.signInThrottle;
        const stale = admitted(await throttle.reserve([ACCOUNT], T0, WINDOW, LOCK));
        await throttle.settle(admitted(await throttle.reserve([ACCOUNT], T0 + 1000, WINDOW, LOCK)), 'failure');
        const fresh = admitted(await throttle.reserve([ACCOUNT], T0 + WINDOW, WINDOW, LOCK));
        assert.equal(fresh[0]!.seen, 0, 'a new window');
        await throttle.settle(stale, 'failure'); // of the ended window: not counted in this one
        assert.equal(await admitUntilRefused(throttle, [ACCOUNT], T0 + WINDOW + 1), 4);

        // A success with nothing else counted forgets the key: the next attempt starts a new window.
        const key = account(2);
        await throttle.settle(admitted(await throttle.reserve([key], T0, WINDOW, LOCK)), 'success');
        await throttle.settle(admitted(await throttle.reserve([key], T0 + WINDOW - 1, WINDOW, LOCK)), 'failure');
        assert.equal(
          await admitUntilRefused(throttle, [key], T0 + WINDOW + 1),
          4,
          'the window began at T0 + WINDOW - 1',
        );
      }));

    it('admits exactly the limit of 50 concurrent reservations, and one more after a concurrent success', () =>
      withBackend(backend, async ({ store }) => {
        const throttle = store.signInThrottle;
        const burst = () =>
          Promise.all(Array.from({ length: 50 }, () => throttle.reserve([ACCOUNT], T0, WINDOW, LOCK)));
        const first = (await burst()).filter((r) => r.admitted);
        assert.equal(first.length, 5);
        assert.deepEqual(await throttle.reserve([ACCOUNT], T0, WINDOW, LOCK), {
          admitted: false,
          lockedUntil: T0 + LOCK,
        });
        // One of them was the right password: it frees its own place, not those of the other four.
        const [success, ...failures] = first;
        await Promise.all([
          throttle.settle(admitted(success!), 'success'),
          throttle.settle(admitted(failures[0]!), 'failure'),
        ]);
        assert.equal((await burst()).filter((r) => r.admitted).length, 1);
      }));

    it('admits 20 of 100 concurrent attempts from one address on 10 accounts, at most 5 per account', () =>
      withBackend(backend, async ({ store }) => {
        const throttle = store.signInThrottle;
        const results = await Promise.all(
          Array.from({ length: 100 }, (_, i) => throttle.reserve([ADDRESS, account(i % 10)], T0, WINDOW, LOCK)),
        );
        const admittedKeys = results.flatMap((r) => (r.admitted ? [r.keys[1]!.key] : []));
        assert.equal(admittedKeys.length, 20);
        for (let a = 0; a < 10; a++) assert.ok(admittedKeys.filter((k) => k === account(a).key).length <= 5);
        assert.ok(results.every((r) => r.admitted || r.lockedUntil === T0 + LOCK));
      }));

    it('keeps keys apart whatever their characters', () =>
      withBackend(backend, async ({ store }) => {
        const throttle = store.signInThrottle;
        const keys = ['account:a', 'account:a:b', 'account:{x}', `account:${'l'.repeat(80)}`, 'account:jörg@例え.jp'];
        const key = (k: string): ThrottleKey => ({ key: k, limit: 100, forgive: true });
        for (const [i, k] of keys.entries())
          for (let n = 0; n <= i; n++)
            await throttle.settle(admitted(await throttle.reserve([key(k)], T0, WINDOW, LOCK)), 'failure');
        for (const [i, k] of keys.entries())
          assert.equal(admitted(await throttle.reserve([key(k)], T0, WINDOW, LOCK))[0]!.seen, i + 1);
      }));
  });
}
