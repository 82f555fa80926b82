/**
 * The console's session protection over HTTP with the real server (docs/console-api.md "Sessions and
 * their protection"): the cookie's attributes, the CSRF token, sign-in throttling, the audit log and
 * the owner's user administration, with their error rows.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { send, type ClientResponse } from '../../src/client/client.js';
import type { Failure, Reply } from '../../src/client/responses.js';
import { importScenario } from '../../src/actors/scenarios.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dataOf, expectError } from '../helpers/assertions.js';
import { bp, m } from '../helpers/blueprints.js';

type ConsoleReply<T> = { readonly ok: true; readonly data: T } | Failure;

/** `POST /api/v1/session` 200 (`GET` has no `session_token`). */
interface SessionView {
  readonly session_token?: string;
  readonly expires_at: string;
  readonly csrf_token: string;
  readonly user: { readonly user_id: string; readonly org_id: string; readonly role: string; readonly email: string };
}
interface AuditView {
  readonly entries: readonly {
    readonly at: string;
    readonly actor: string;
    readonly action: string;
    readonly target: string | null;
    readonly detail: string | null;
  }[];
  readonly next_cursor: string | null;
}

const MINUTE = 60_000;

/** A signed-in browser: the cookie and the CSRF token of one session. */
interface Browser {
  readonly cookie: string;
  readonly csrf: string;
  readonly userId: string;
  readonly token: string;
}

/** Calls the console API of `baseUrl` with `headers`. */
function consoleCall<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<ClientResponse<ConsoleReply<T>>> {
  return send<ConsoleReply<T>>(
    new URL(`/api/v1${path}`, baseUrl),
    method,
    { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body === undefined ? '' : JSON.stringify(body),
  );
}

/** Signs in and returns the answer (its `set-cookie` header included). */
const signIn = (baseUrl: string, email: string, password: string, headers: Record<string, string> = {}) =>
  consoleCall<SessionView>(baseUrl, 'POST', '/session', headers, { email, password });

/** The one `Set-Cookie` header of an answer. */
function setCookie(res: ClientResponse<unknown>): string {
  const header = res.headers['set-cookie'];
  assert.ok(typeof header === 'string', `one cookie is set: ${res.raw}`);
  return header;
}

/** The `gov_session` cookie pair of a sign-in answer. */
const cookieOf = (res: ClientResponse<unknown>): string => setCookie(res).split(';', 1)[0]!;

describe('console session protection', () => {
  let nowMs = Date.now();
  let t: TestServer;
  let owner: Browser;
  let member: Browser;
  const OWNER = { email: 'owner@acme.test', password: 'owner password 123' };
  const MEMBER = { email: 'member@acme.test', password: 'member password 123' };

  const browser = async (who: { email: string; password: string }): Promise<Browser> => {
    const res = await signIn(t.baseUrl, who.email, who.password);
    const data = dataOf(res);
    return { cookie: cookieOf(res), csrf: data.csrf_token, userId: data.user.user_id, token: data.session_token! };
  };
  const audit = async (as: Browser, query = ''): Promise<AuditView> => {
    const res = await consoleCall<AuditView>(t.baseUrl, 'GET', `/audit${query}`, { cookie: as.cookie });
    assert.equal(res.status, 200, res.raw);
    return dataOf(res);
  };

  before(async () => {
    t = await startTestServer({ now: () => nowMs });
    await t.server.users.create(t.orgId, OWNER.email, 'owner', OWNER.password);
    await t.server.users.create(t.orgId, MEMBER.email, 'member', MEMBER.password);
    await t.server.users.create(t.orgId, 'locked@acme.test', 'admin', 'locked password 123');
    owner = await browser(OWNER);
    member = await browser(MEMBER);
  });
  after(() => t.close());

  it('signs in with a csrf_token and an HttpOnly, SameSite=Strict cookie without Secure on plain loopback', async () => {
    const res = await signIn(t.baseUrl, OWNER.email, OWNER.password, { 'x-forwarded-proto': 'https' });
    assert.equal(res.status, 200, res.raw);
    const data = dataOf(res);
    assert.match(data.csrf_token, /^[0-9a-f]{64}$/);
    assert.equal(data.user.role, 'owner');
    const cookie = setCookie(res);
    assert.match(
      cookie,
      /^gov_session=gov_sess_[0-9a-f]{64}; Path=\/api\/v1; HttpOnly; SameSite=Strict; Max-Age=28800$/,
    );
    assert.ok(!/Secure/i.test(cookie), 'X-Forwarded-Proto from a peer that is no trusted proxy is ignored');
  });

  it('GET /session answers the session without its token, by cookie or by Bearer; DELETE clears the cookie', async () => {
    const viaCookie = await consoleCall<SessionView>(t.baseUrl, 'GET', '/session', { cookie: owner.cookie });
    const data = dataOf(viaCookie);
    assert.equal(data.session_token, undefined);
    assert.equal(data.csrf_token, owner.csrf);
    assert.deepEqual(data.user, { user_id: owner.userId, org_id: t.orgId, role: 'owner', email: OWNER.email });
    const viaBearer = await consoleCall<SessionView>(t.baseUrl, 'GET', '/session', {
      authorization: `Bearer ${owner.token}`,
    });
    assert.equal(dataOf(viaBearer).csrf_token, owner.csrf);
    expectError(await consoleCall(t.baseUrl, 'GET', '/session'), 401, 'Session authentication required');

    const leaving = await browser(MEMBER);
    expectError(
      await consoleCall(t.baseUrl, 'DELETE', '/session', { cookie: leaving.cookie }),
      403,
      'CSRF token missing or invalid',
    );
    const out = await consoleCall(t.baseUrl, 'DELETE', '/session', {
      cookie: leaving.cookie,
      'x-csrf-token': leaving.csrf,
    });
    assert.equal(out.status, 200, out.raw);
    assert.deepEqual(dataOf(out), { logged_out: true });
    assert.match(setCookie(out), /^gov_session=; Path=\/api\/v1; HttpOnly; SameSite=Strict; Max-Age=0$/);
    expectError(
      await consoleCall(t.baseUrl, 'GET', '/session', { cookie: leaving.cookie }),
      401,
      'Session authentication required',
    );
  });

  it('refuses a cookie-authenticated change without the session’s X-CSRF-Token; Bearer calls are exempt', async () => {
    const path = `/keys?org_id=${t.orgId}`;
    expectError(
      await consoleCall(t.baseUrl, 'POST', path, { cookie: owner.cookie }, { name: 'no-csrf' }),
      403,
      'CSRF token missing or invalid',
    );
    expectError(
      await consoleCall(t.baseUrl, 'POST', path, { cookie: owner.cookie, 'x-csrf-token': member.csrf }, {}),
      403,
      'CSRF token missing or invalid',
    );
    expectError(
      await consoleCall(t.baseUrl, 'POST', path, { cookie: owner.cookie, 'x-csrf-token': 'not-hex' }, {}),
      403,
      'CSRF token missing or invalid',
    );
    const withToken = await consoleCall<{ key_id: string }>(
      t.baseUrl,
      'POST',
      path,
      { cookie: owner.cookie, 'x-csrf-token': owner.csrf },
      { name: 'browser' },
    );
    assert.equal(withToken.status, 201, withToken.raw);
    const bearer = await consoleCall<{ key_id: string }>(
      t.baseUrl,
      'POST',
      path,
      { authorization: `Bearer ${owner.token}` },
      { name: 'script' },
    );
    assert.equal(bearer.status, 201, bearer.raw);
    const revoked = await consoleCall(
      t.baseUrl,
      'POST',
      `/keys/${dataOf(bearer).key_id}/revoke`,
      { cookie: owner.cookie, 'x-csrf-token': owner.csrf },
      { org_id: t.orgId },
    );
    assert.equal(revoked.status, 200, revoked.raw);
    // Reads need no token.
    const list = await consoleCall(t.baseUrl, 'GET', path, { cookie: owner.cookie });
    assert.equal(list.status, 200, list.raw);

    const entries = (await audit(owner)).entries;
    const created = entries.filter((e) => e.action === 'key.create');
    assert.deepEqual(
      created.map((e) => [e.actor, e.target, e.detail]),
      [
        [`user:${owner.userId}`, dataOf(bearer).key_id, 'script'],
        [`user:${owner.userId}`, dataOf(withToken).key_id, 'browser'],
      ],
    );
    assert.ok(
      entries.some(
        (e) => e.action === 'key.revoke' && e.target === dataOf(bearer).key_id && e.actor === `user:${owner.userId}`,
      ),
    );
  });

  it('locks an account after five failures (even for the right password) and opens it 15 minutes later', async () => {
    const email = 'locked@acme.test';
    for (let i = 0; i < 5; i++)
      expectError(await signIn(t.baseUrl, email, `wrong ${i}`), 401, 'Invalid email or password');
    const locked = await signIn(t.baseUrl, 'LOCKED@acme.test', 'locked password 123');
    expectError(locked, 429, 'Too many sign-in attempts');
    const retryAfter = Number(locked.headers['retry-after']);
    assert.ok(retryAfter > 14 * 60 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
    // Another account from the same address is not locked.
    assert.equal((await signIn(t.baseUrl, MEMBER.email, MEMBER.password)).status, 200);

    nowMs += 15 * MINUTE;
    const again = await signIn(t.baseUrl, email, 'locked password 123');
    assert.equal(again.status, 200, again.raw);
    // The success reset the account: four more failures do not lock it.
    for (let i = 0; i < 4; i++) expectError(await signIn(t.baseUrl, email, 'wrong'), 401, 'Invalid email or password');
    assert.equal((await signIn(t.baseUrl, email, 'locked password 123')).status, 200);

    const entries = (await audit(member)).entries;
    const failed = entries.filter((e) => e.action === 'session.sign_in_failed');
    assert.equal(failed.length, 9);
    assert.ok(failed.every((e) => e.actor === failed[0]!.actor && e.actor.startsWith('user:usr_')));
    assert.ok(entries.filter((e) => e.action === 'session.sign_in').length >= 4);
    assert.ok(entries.some((e) => e.action === 'session.sign_out'));
    assert.ok(!entries.some((e) => e.detail?.includes('wrong')), 'passwords never reach the audit log');
  });

  it('audits changes made through the public API with the key as actor', async () => {
    await importScenario(
      t.server.store.scenarios,
      t.orgId,
      'audited',
      JSON.stringify(bp([m(1, 'http:ActionSendData'), m(2, 'google-sheets:addRow')])),
    );
    const hook = await t.client.call<Reply<{ webhook_id: string }>>('POST', '/webhooks', {
      url: 'https://hooks.example.com/governance',
    });
    assert.equal(hook.status, 201, hook.raw);
    const waiver = await t.client.call<Reply<{ waiver_id: string }>>('POST', '/waivers', {
      scenario_id: 'audited',
      policy: 'DI-1',
      reason: 'Scratch sheet, accepted until the rewrite',
      approver: 'CISO',
      expires_at: new Date(nowMs + 7 * 24 * 60 * MINUTE).toISOString(),
    });
    assert.equal(waiver.status, 201, waiver.raw);
    const settings = await t.client.call<Reply<{ version: number }>>(
      'PUT',
      '/governance/settings',
      { disabled_policies: ['ARC-4'] },
      { headers: { 'if-match': '"0"' } },
    );
    assert.equal(settings.status, 200, settings.raw);
    const deleted = await t.client.call<Reply<unknown>>('DELETE', `/webhooks/${dataOf(hook).webhook_id}`);
    assert.equal(deleted.status, 200, deleted.raw);

    const actor = `key:${t.creds.keyId}`;
    const recent = (await audit(member, '?limit=4')).entries;
    assert.deepEqual(
      recent.map((e) => [e.actor, e.action, e.target]),
      [
        [actor, 'webhook.delete', dataOf(hook).webhook_id],
        [actor, 'settings.update', 'v1'],
        [actor, 'waiver.create', dataOf(waiver).waiver_id],
        [actor, 'webhook.create', dataOf(hook).webhook_id],
      ],
    );
    assert.equal(recent[3]!.detail, 'https://hooks.example.com/governance');
    assert.equal(recent[0]!.at, new Date(nowMs).toISOString());
  });

  it('pages the audit log newest first with an opaque cursor', async () => {
    const all = (await audit(owner, '?limit=200')).entries;
    assert.ok(all.length > 10);
    const seen: AuditView['entries'][number][] = [];
    let query = '?limit=7';
    for (;;) {
      const page = await audit(owner, query);
      seen.push(...page.entries);
      if (page.next_cursor === null) break;
      query = `?limit=7&cursor=${encodeURIComponent(page.next_cursor)}`;
    }
    assert.deepEqual(seen, all);
    expectError(
      await consoleCall(t.baseUrl, 'GET', '/audit?limit=0', { cookie: owner.cookie }),
      422,
      'Invalid request body',
    );
    expectError(
      await consoleCall(t.baseUrl, 'GET', '/audit?cursor=bm9wZQ', { cookie: owner.cookie }),
      422,
      'Invalid request body',
    );
  });

  it('lets the owner list and create users; a member reads the audit log but cannot manage users', async () => {
    expectError(await consoleCall(t.baseUrl, 'GET', '/users', { cookie: member.cookie }), 403, 'Not authorized');
    expectError(
      await consoleCall(
        t.baseUrl,
        'POST',
        '/users',
        { cookie: member.cookie, 'x-csrf-token': member.csrf },
        { email: 'x@acme.test', role: 'member' },
      ),
      403,
      'Not authorized',
    );
    const owned = { cookie: owner.cookie, 'x-csrf-token': owner.csrf };
    const created = await consoleCall<{ user_id: string; email: string; role: string; password?: string }>(
      t.baseUrl,
      'POST',
      '/users',
      owned,
      { email: 'New.Admin@acme.test', role: 'admin' },
    );
    assert.equal(created.status, 201, created.raw);
    const user = dataOf(created);
    assert.equal(user.email, 'new.admin@acme.test');
    assert.equal(user.role, 'admin');
    assert.ok(user.password && user.password.length >= 20, 'a generated password is shown once');
    assert.equal((await signIn(t.baseUrl, 'new.admin@acme.test', user.password)).status, 200);
    const chosen = await consoleCall<{ password?: string }>(t.baseUrl, 'POST', '/users', owned, {
      email: 'chosen@acme.test',
      role: 'member',
      password: 'a chosen password',
    });
    assert.equal(chosen.status, 201, chosen.raw);
    assert.equal(dataOf(chosen).password, undefined, 'a chosen password is never echoed');

    for (const body of [
      { email: 'not-an-email', role: 'member' },
      { email: 'ok@acme.test', role: 'root' },
      { email: 'ok@acme.test', role: 'member', password: 'short' },
      { email: 'NEW.ADMIN@acme.test', role: 'member' },
    ])
      expectError(await consoleCall(t.baseUrl, 'POST', '/users', owned, body), 422, 'Invalid request body');
    const refusedPasswords = [
      ['x7#kQ9!mZp2', 'must be 12 to 1024 characters'],
      ['PASSWORD1234', 'is a commonly used password (found in password breach lists)'],
      ['Weak.Choice@acme.test', "must not be or contain the account's e-mail address"],
      ['weak.choice@acme.test!', "must not be or contain the account's e-mail address"],
    ] as const;
    for (const [password, message] of refusedPasswords) {
      const body = { email: 'weak.choice@acme.test', role: 'member', password };
      const refused = await consoleCall<never>(t.baseUrl, 'POST', '/users', owned, body);
      expectError(refused, 422, 'Invalid request body');
      assert.deepEqual((JSON.parse(refused.raw) as { detail: unknown }).detail, [{ path: '/password', message }]);
    }
    expectError(
      await consoleCall(
        t.baseUrl,
        'POST',
        '/users',
        { cookie: owner.cookie },
        { email: 'y@acme.test', role: 'member' },
      ),
      403,
      'CSRF token missing or invalid',
    );

    const list = await consoleCall<{ users: readonly Record<string, unknown>[] }>(t.baseUrl, 'GET', '/users', {
      cookie: owner.cookie,
    });
    const users = dataOf(list).users;
    assert.deepEqual(
      users.map((u) => u['email']),
      ['chosen@acme.test', 'locked@acme.test', 'member@acme.test', 'new.admin@acme.test', 'owner@acme.test'],
    );
    assert.ok(!list.raw.includes('scrypt') && users.every((u) => !('password_hash' in u)));
    const entry = (await audit(member)).entries.find((e) => e.action === 'user.create' && e.target === user.user_id);
    assert.equal(entry?.actor, `user:${owner.userId}`);
  });
});

describe('console cookie over TLS and address throttling', () => {
  it('marks the cookie Secure with CONSOLE_SECURE_COOKIE=true', async () => {
    const t = await startTestServer({ env: { CONSOLE_SECURE_COOKIE: 'true' } });
    try {
      await t.server.users.create(t.orgId, 'a@acme.test', 'admin', 'admin password 123');
      const res = await signIn(t.baseUrl, 'a@acme.test', 'admin password 123');
      assert.match(setCookie(res), /; Secure$/);
    } finally {
      await t.close();
    }
  });

  it('believes X-Forwarded-Proto and X-Forwarded-For from a trusted proxy; 20 failures lock an address', async () => {
    const t = await startTestServer({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
    try {
      await t.server.users.create(t.orgId, 'a@acme.test', 'admin', 'admin password 123');
      const tls = await signIn(t.baseUrl, 'a@acme.test', 'admin password 123', { 'x-forwarded-proto': 'https' });
      assert.match(setCookie(tls), /; Secure$/);
      const plain = await signIn(t.baseUrl, 'a@acme.test', 'admin password 123', { 'x-forwarded-proto': 'http' });
      assert.ok(!/Secure/.test(setCookie(plain)));

      const from = (address: string) => ({ 'x-forwarded-for': address });
      // Unknown e-mails: no account and no audit entry, but the address counts each failure.
      for (let i = 0; i < 20; i++)
        expectError(
          await signIn(t.baseUrl, `nobody${i}@acme.test`, 'wrong', from('203.0.113.9')),
          401,
          'Invalid email or password',
        );
      const locked = await signIn(t.baseUrl, 'a@acme.test', 'admin password 123', from('203.0.113.9'));
      expectError(locked, 429, 'Too many sign-in attempts');
      assert.ok(Number(locked.headers['retry-after']) > 0);
      const elsewhere = await signIn(t.baseUrl, 'a@acme.test', 'admin password 123', from('198.51.100.4'));
      assert.equal(elsewhere.status, 200, elsewhere.raw);
      const entries = await t.server.store.audit.list(t.orgId, 100);
      assert.ok(
        entries.every((e) => e.action === 'session.sign_in'),
        'org-less failures are not audited',
      );
    } finally {
      await t.close();
    }
  });
});
