/**
 * The web console in a real browser (issue 18), part 1: sign-in, API keys, users and sessions.
 * The shared set-up and what every page is checked for: test/helpers/console-browser.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GovernanceClient } from '../../src/client/client.js';
import { ADMIN, LOCKED, MEMBER, OWNER, rowOf, useConsoleBrowser } from '../helpers/console-browser.js';

describe('console in a browser: sign-in, keys, users', () => {
  const b = useConsoleBrowser();

  it('signs in; creates a key whose key and secret work from Node; rotates it; revokes it and the API answers 401', async () => {
    const page = await b.newPage();
    await page.goto('/console/');
    await page.getByRole('heading', { name: 'Sign in to the governance console' }).waitFor();
    await b.axe(page, 'sign-in');
    await b.shot(page, 'sign-in');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();

    await page.getByLabel('Name').fill('ci-browser');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: /Key created/ }).waitFor();
    const apiKey = await page.locator('#issued-key').inputValue();
    const secret = await page.locator('#issued-secret').inputValue();
    assert.match(apiKey, /^gov_live_[0-9a-f]{48}$/);
    const client = new GovernanceClient(b.t.baseUrl, { apiKey, signingSecret: secret });
    assert.equal(
      (await client.call('GET', '/governance/policies')).status,
      200,
      'the shown key and secret sign a call',
    );
    await page
      .getByRole('row', { name: /ci-browser/ })
      .first()
      .waitFor();
    await b.axe(page, 'keys (key created)');
    await b.shot(page, 'keys-created');
    await page.getByRole('button', { name: 'I have stored them' }).click();

    // Rotate with the default overlap (1 hour): both keys work meanwhile.
    await rowOf(page, apiKey)
      .getByRole('button', { name: /^Rotate/ })
      .click();
    await page.getByRole('dialog').getByLabel('Overlap').selectOption('3600');
    await page.getByRole('button', { name: 'Rotate key' }).click();
    await page.getByRole('heading', { name: /Key rotated/ }).waitFor();
    const newKey = await page.locator('#issued-key').inputValue();
    const newSecret = await page.locator('#issued-secret').inputValue();
    assert.notEqual(newKey, apiKey);
    const fresh = new GovernanceClient(b.t.baseUrl, { apiKey: newKey, signingSecret: newSecret });
    assert.equal((await fresh.call('GET', '/governance/policies')).status, 200);
    assert.equal(
      (await client.call('GET', '/governance/policies')).status,
      200,
      'the old key lives during the overlap',
    );
    await page.getByRole('button', { name: 'I have stored them' }).click();

    // Revoke the new key, with confirmation.
    await rowOf(page, newKey)
      .getByRole('button', { name: /^Revoke/ })
      .click();
    await page.getByRole('dialog').getByText('This cannot be undone').waitFor();
    await b.axe(page, 'keys (revoke dialog)');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await rowOf(page, newKey).getByText('revoked').waitFor();
    // Key look-ups are cached for one second (docs/api.md "Security model"): retry briefly.
    let status = 0;
    for (const deadline = Date.now() + 3000; Date.now() < deadline;) {
      status = (await fresh.call('GET', '/governance/policies')).status;
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(status, 401, 'a revoked key is refused');
    await b.axe(page, 'keys');
    await b.shot(page, 'keys');
    await b.assertClean(page);
  });

  it('refuses key creation to a member (the page says so, the server answers 403)', async () => {
    const page = await b.newPage();
    await b.signIn(page, MEMBER);
    await b.go(page, 'API keys', 'API keys');
    await page.getByText('Key administration needs the admin role').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Create key' }).isDisabled(), true);
    const status = await page.evaluate(async (orgId) => {
      const res = await fetch('/api/v1/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ org_id: orgId, name: 'sneaky' }),
      });
      return res.status;
    }, b.t.orgId);
    assert.equal(status, 403, 'the server refuses a member');
    await b.axe(page, 'keys (member)');
    await b.shot(page, 'keys-member');
    await b.assertClean(page);
  });

  it('locks sign-in after five wrong passwords and says so', async () => {
    const page = await b.newPage();
    await page.goto('/console/');
    const attempt = async (password: string) => {
      await page.getByLabel('Email').fill(LOCKED.email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor(); // enabled again: the answer arrived
    };
    for (let i = 0; i < 5; i++) {
      await attempt(`wrong ${i}`);
      await page.getByRole('alert').getByText('Invalid email or password').waitFor();
    }
    await attempt(LOCKED.password); // the right password while locked
    await page
      .getByRole('alert')
      .getByText(/Too many sign-in attempts/)
      .waitFor();
    await b.axe(page, 'sign-in (locked)');
    await b.shot(page, 'sign-in-locked');
    await b.assertClean(page);
  });

  it('lets an owner add a user, whose generated password (shown once) signs in; an admin cannot', async () => {
    const page = await b.newPage();
    await b.signIn(page, OWNER);
    await b.go(page, 'Users', 'Users');
    await page.getByLabel('Email').fill('new.analyst@acme.test');
    await page.getByLabel('Role').selectOption('member');
    await page.getByRole('button', { name: 'Add user' }).click();
    const password = await page.getByRole('textbox', { name: 'Password' }).inputValue();
    assert.ok(password.length >= 12, 'a generated password');
    await page.getByRole('row', { name: /new\.analyst@acme\.test/ }).waitFor();
    await b.axe(page, 'users');
    await b.shot(page, 'users');
    await b.assertClean(page);
    const login = await fetch(`${b.t.baseUrl}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'new.analyst@acme.test', password }),
    });
    assert.equal(login.status, 200, 'the new account signs in with the password shown');

    const byAdmin = await b.admin();
    await b.go(byAdmin, 'Users', 'Users');
    await byAdmin.getByText('Managing users needs the owner role').waitFor();
    assert.equal(await byAdmin.getByRole('button', { name: 'Add user' }).isDisabled(), true);
    await b.axe(byAdmin, 'users (admin)');
  });

  it('restores the session after a reload and signs out', async () => {
    const page = await b.admin();
    await page.goto('/console/keys');
    // A full load: the CSRF token is gone from memory and comes back from GET /api/v1/session.
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the governance console' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to the governance console' }).waitFor();
    b.forgetAdmin();
    await b.assertClean(page);
  });
});
