/** @module test/store/contract/console-accounts: the contract of ConsoleAccountsRepository: unique e-mails under concurrency, users and sessions. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionRecord, UserRecord } from '../../../src/model/records.js';
import type { BackendUnderTest } from './backend.js';
import { withBackend } from './backend.js';
import { iso, ORG, T0 } from './fixtures.js';

const user = (userId: string, email: string): UserRecord => ({
  user_id: userId,
  org_id: ORG,
  email,
  role: 'admin',
  password_hash: 'scrypt$16384$8$1$c2FsdA==$aGFzaA==',
  created_at: iso(),
});
const session = (userId: string): SessionRecord => ({
  user_id: userId,
  org_id: ORG,
  role: 'admin',
  expires_at: T0 + 3_600_000,
});

/** Registers the console accounts suite for `backend`. */
export function consoleAccountsContract(backend: BackendUnderTest): void {
  describe(`console accounts contract (${backend.name})`, () => {
    it('creates a user, found by id and by e-mail; a taken e-mail is refused', () =>
      withBackend(backend, async ({ store }) => {
        const accounts = store.consoleAccounts;
        const ann = user('usr_1', 'ann@example.com');
        assert.equal(await accounts.createUser(ann), true);
        assert.deepEqual(await accounts.getUser('usr_1'), ann);
        assert.deepEqual(await accounts.userByEmail('ann@example.com'), ann);
        assert.equal(await accounts.createUser(user('usr_2', 'ann@example.com')), false);
        assert.equal(await accounts.getUser('usr_2'), undefined);
        assert.deepEqual(await accounts.userByEmail('ann@example.com'), ann);
        assert.equal(await accounts.userByEmail('bob@example.com'), undefined);
        assert.equal(await accounts.getUser('usr_unknown'), undefined);
        assert.equal(await accounts.createUser(user('usr_3', 'jörg@例え.jp')), true);
        assert.equal((await accounts.userByEmail('jörg@例え.jp'))?.user_id, 'usr_3');
      }));

    it('gives a contested e-mail to exactly one of 20 concurrent sign-ups', () =>
      withBackend(backend, async ({ store }) => {
        const accounts = store.consoleAccounts;
        const created = await Promise.all(
          Array.from({ length: 20 }, (_, i) => accounts.createUser(user(`usr_${i}`, 'same@example.com'))),
        );
        assert.equal(created.filter(Boolean).length, 1);
        const winner = `usr_${created.indexOf(true)}`;
        assert.equal((await accounts.userByEmail('same@example.com'))?.user_id, winner);
        for (let i = 0; i < 20; i++)
          if (`usr_${i}` !== winner)
            assert.equal(await accounts.getUser(`usr_${i}`), undefined, `usr_${i} was not stored`);
      }));

    it("lists an organization's users by e-mail, and only theirs", () =>
      withBackend(backend, async ({ store }) => {
        const accounts = store.consoleAccounts;
        assert.deepEqual(await accounts.usersOf(ORG), []);
        await accounts.createUser(user('usr_2', 'zed@example.com'));
        await accounts.createUser(user('usr_1', 'ann@example.com'));
        await accounts.createUser({ ...user('usr_3', 'bob@example.com'), org_id: `${ORG}0` });
        assert.deepEqual(
          (await accounts.usersOf(ORG)).map((u) => u.user_id),
          ['usr_1', 'usr_2'],
        );
        assert.deepEqual(await accounts.usersOf(ORG), [
          user('usr_1', 'ann@example.com'),
          user('usr_2', 'zed@example.com'),
        ]);
        assert.deepEqual(
          (await accounts.usersOf(`${ORG}0`)).map((u) => u.user_id),
          ['usr_3'],
        );
      }));

    it('stores, reads and deletes sessions by token hash, durably', () =>
      withBackend(backend, async (opened) => {
        const hash = 'a'.repeat(64);
        const other = 'b'.repeat(64);
        await opened.store.consoleAccounts.createUser(user('usr_1', 'ann@example.com'));
        await opened.store.consoleAccounts.createSession(hash, session('usr_1'));
        await opened.store.consoleAccounts.createSession(other, { ...session('usr_1'), expires_at: T0 - 1 });
        assert.deepEqual(await opened.store.consoleAccounts.session(hash), session('usr_1'));
        assert.equal(
          (await opened.store.consoleAccounts.session(other))?.expires_at,
          T0 - 1,
          'expired sessions are still returned',
        );
        assert.equal(await opened.store.consoleAccounts.session('c'.repeat(64)), undefined);
        const store = await opened.reopen();
        assert.deepEqual(await store.consoleAccounts.session(hash), session('usr_1'));
        assert.equal((await store.consoleAccounts.userByEmail('ann@example.com'))?.user_id, 'usr_1');
        await store.consoleAccounts.deleteSession(hash);
        assert.equal(await store.consoleAccounts.session(hash), undefined);
        assert.ok(await store.consoleAccounts.session(other));
        await store.consoleAccounts.deleteSession('c'.repeat(64));
      }));
  });
}
