/**
 * Console sign-in under a flood of concurrent attempts (issue 31, item 2; docs/console-api.md
 * "Sign-in throttling"): every attempt is counted before its password is verified, so 100 at once
 * verify at most 5 passwords per account and 20 per address, on both backends; and the password
 * verifications a process runs at once are bounded (SIGN_IN_CONCURRENCY), beyond which a sign-in
 * gets 429 with Retry-After, so that the service's memory stays bounded during the flood.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { send, type ClientResponse } from '../../src/client/client.js';
import type { Failure } from '../../src/client/responses.js';
import { hashPassword, SCRYPT } from '../../src/server/console/users.js';
import { startTestServer } from '../helpers/server.js';
import { redisClusterEnv } from '../helpers/redis-env.js';
import { startService } from '../helpers/process.js';
import { runAdmin } from '../helpers/admin.js';

/** Requests of one flood, all sent at once. */
const FLOOD = 100;
/** MiB the service's peak RSS may exceed its idle RSS by during the flood (issue 31: each scrypt takes 128 MiB). */
const HEADROOM_MIB = 300;

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

/** A `/proc/<pid>/status` field in KiB (VmRSS: resident now; VmHWM: the peak). */
function procKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(m, `${field} of ${pid}`);
  return Number(m[1]);
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
      // SIGN_IN_CONCURRENCY above the floods: only the throttle limits what is verified.
      const env = { SIGN_IN_CONCURRENCY: '256', TRUSTED_PROXIES: '127.0.0.1' };
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

describe('console sign-in flood: memory and 429 beyond SIGN_IN_CONCURRENCY (service process)', () => {
  it(`keeps the peak RSS within idle + ${HEADROOM_MIB} MiB during ${FLOOD} concurrent sign-ins, refusing those beyond 2 with 429 and Retry-After`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gov-flood-'));
    const env = { DATA_DIR: dataDir };
    const service = { stop: async () => {} } as { stop: () => Promise<unknown> };
    try {
      const org = JSON.parse((await runAdmin(['orgs', 'create', '--name', 'Flood', '--json'], env)).stdout) as {
        org_id: string;
      };
      const owner = { email: 'owner@flood.test', password: 'the right password 123' };
      const created = await runAdmin(
        ['users', 'create', '--org', org.org_id, '--email', owner.email, '--password', owner.password, '--json'],
        env,
      );
      assert.equal(created.status, 0, created.stderr);
      // The default SIGN_IN_CONCURRENCY (2), the default scrypt cost (128 MiB per verification).
      const s = await startService({ ...env, POOL_THREADS: '1' });
      service.stop = () => s.stop('SIGTERM');
      const pid = s.child.pid!;
      // Warm the sign-in path (an unknown e-mail also costs a hash), then take the idle RSS and reset the peak.
      assert.equal((await signIn(s.baseUrl, 'nobody@flood.test', 'x')).status, 401);
      const idleKiB = procKiB(pid, 'VmRSS');
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to VmRSS (Linux 4.0+)
      } catch {
        // Without it VmHWM is the peak since the start: a stricter bound.
      }
      const answers = await Promise.all(
        Array.from({ length: FLOOD }, (_, i) =>
          signIn(s.baseUrl, owner.email, i === FLOOD / 2 ? owner.password : `wrong ${i}`),
        ),
      );
      const peakKiB = procKiB(pid, 'VmHWM');
      const counts = tally(answers.map(outcome));
      assert.ok(
        peakKiB - idleKiB < HEADROOM_MIB * 1024,
        `peak RSS ${Math.round(peakKiB / 1024)} MiB, idle ${Math.round(idleKiB / 1024)} MiB: ${JSON.stringify(counts)}`,
      );
      const busy = answers.filter((r) => outcome(r) === '429 Too many sign-ins in progress');
      assert.ok(busy.length > 0, JSON.stringify(counts));
      assert.ok(busy.every((r) => r.headers['retry-after'] === '1'));
      const verified = (counts['200'] ?? 0) + (counts['401 Invalid email or password'] ?? 0);
      assert.ok(verified >= 1 && verified <= 5, JSON.stringify(counts));
      assert.ok(
        answers.every((r) => r.status === 200 || r.status === 401 || r.status === 429),
        JSON.stringify(counts),
      );
    } finally {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
