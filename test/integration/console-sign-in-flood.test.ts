/**
 * Console sign-in under a flood of concurrent attempts (issue 31, item 2; docs/console-api.md
 * "Sign-in throttling"): every attempt is counted before its password is verified, so 100 at once
 * verify at most 5 passwords per account and 20 per address, on both backends.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { send, type ClientResponse } from '../../src/client/client.js';
import type { Failure } from '../../src/client/responses.js';
import { hashPassword, SCRYPT } from '../../src/server/console/users.js';
import { startTestServer } from '../helpers/server.js';
import { redisClusterEnv } from '../helpers/redis-env.js';

/** Requests of one flood, all sent at once. */
const FLOOD = 100;

/** `POST /api/v1/session` with `email` and `password` (and `headers`). */
const signIn = (
  baseUrl: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<ClientResponse<unknown>> =>
  send(
    new URL('/api/v1/session', baseUrl),
    'POST',
    { 'content-type': 'application/json', ...headers },
    JSON.stringify({ email, password }),
  );

/** The `error` string of a refused sign-in, or its status for a success. */
const outcome = (res: ClientResponse<unknown>): string =>
  res.status === 200 ? '200' : `${res.status} ${(res.body as Failure | null)?.error ?? res.raw}`;

/** Counts the values of `list`. */
function tally(list: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of list) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

/** One sign-in attempt of a flood: the account, the password tried and the client address (X-Forwarded-For). */
interface Attempt {
  readonly account: { readonly email: string; readonly password: string; readonly userId: string };
  readonly password: string;
  readonly address: string;
}

for (const backend of ['lmdb', 'redis'] as const)
  describe(`console sign-in flood (${backend})`, () => {
    it(`verifies at most 5 passwords per account and 20 per address of ${FLOOD} concurrent attempts, the right ones among them`, async () => {
      const env = { TRUSTED_PROXIES: '127.0.0.1' };
      const t = await startTestServer({ env: backend === 'redis' ? await redisClusterEnv(env) : env });
      try {
        // Accounts on cheaper (but real) scrypt hashes: the service verifies with the parameters the hash names.
        const accounts = await Promise.all(
          ['solo', 'a', 'b', 'c', 'd', 'e'].map(async (name) => {
            const account = { email: `${name}@flood.test`, password: `right password of ${name}`, userId: '' };
            const userId = `usr_${randomBytes(8).toString('hex')}`;
            const created = await t.server.store.consoleAccounts.createUser({
              user_id: userId,
              org_id: t.orgId,
              email: account.email,
              role: 'member',
              password_hash: await hashPassword(account.password, { ...SCRYPT, N: 1 << 15 }),
              created_at: new Date().toISOString(),
            });
            assert.ok(created);
            return { ...account, userId };
          }),
        );
        const [solo, ...several] = accounts;
        // Two floods at once, each from its own address, the right password first: one account from
        // 198.51.100.1, and five accounts (20 attempts each) from 198.51.100.2.
        const attempts: Attempt[] = [
          ...Array.from({ length: FLOOD }, (_, i) => ({
            account: solo!,
            password: i === 0 ? solo!.password : `wrong ${i}`,
            address: '198.51.100.1',
          })),
          ...Array.from({ length: FLOOD }, (_, i) => {
            const account = several[i % several.length]!;
            return { account, password: i < several.length ? account.password : `wrong ${i}`, address: '198.51.100.2' };
          }),
        ];
        const outcomes = (
          await Promise.all(
            attempts.map(({ account, password, address }) =>
              signIn(t.baseUrl, account.email, password, { 'x-forwarded-for': address }),
            ),
          )
        ).map(outcome);
        const audit = await t.server.store.audit.list(t.orgId, 500);
        const of = (keep: (a: Attempt) => boolean) => outcomes.filter((_, i) => keep(attempts[i]!));
        for (const address of ['198.51.100.1', '198.51.100.2']) {
          const counts = tally(of((a) => a.address === address));
          assert.deepEqual(
            Object.keys(counts).sort(),
            ['200', '401 Invalid email or password', '429 Too many sign-in attempts'].filter((k) => k in counts),
            JSON.stringify(counts),
          );
          const wrong = counts['401 Invalid email or password'] ?? 0;
          assert.ok(wrong <= 20, `at most 20 wrong passwords verified from ${address}: ${JSON.stringify(counts)}`);
        }
        for (const account of accounts) {
          const mine = of((a) => a.account === account);
          const failed = mine.filter((o) => o.startsWith('401')).length;
          assert.ok(
            failed <= 5,
            `at most 5 wrong passwords verified for ${account.email}: ${JSON.stringify(tally(mine))}`,
          );
          // What the service recorded agrees: one failed sign-in in the audit log per 401.
          const audited = audit.filter((e) => e.action === 'session.sign_in_failed' && e.target === account.userId);
          assert.equal(audited.length, failed, account.email);
        }
        // The five accounts' flood reached the address limit (their right passwords count while verified).
        const locked = tally(of((a) => a.address === '198.51.100.2'))['429 Too many sign-in attempts'] ?? 0;
        assert.ok(locked >= FLOOD - 25, `${locked} locked`);
      } finally {
        await t.close();
      }
    });
  });
