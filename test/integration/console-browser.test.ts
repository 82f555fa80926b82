/**
 * The web console in a real browser (issue 18): Debian's Chromium driven by playwright-core against
 * the real server, under the console's real CSP. Every page is checked with axe-core (no serious or
 * critical violation), watched for CSP violations and page errors, and photographed into
 * docs/console/*.png (embedded in docs/console.md).
 *
 * axe is injected with `page.evaluate(source)`: code evaluated through the DevTools protocol is not
 * subject to the page's CSP, so the page keeps its real policy. `addScriptTag({ content })` would add
 * an inline script that the CSP (rightly) refuses, and `bypassCSP: true` is a context option: it
 * would switch the CSP off for the whole page and hide the very violations this test looks for.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { GovernanceClient, pollEvaluation } from '../../src/client/client.js';
import type { ScenarioResults, SubmitResult } from '../../src/client/responses.js';
import { importScenario } from '../../src/actors/scenarios.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { corpusFacts, corpusText } from '../helpers/corpus.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/**
 * Screenshots go to docs/console/ only when asked (`npm run docs:console`, CONSOLE_SCREENSHOTS=1), so
 * a test run never changes tracked files; otherwise to a temporary directory (still taken: a page
 * that cannot be captured fails the test).
 */
const SHOTS =
  process.env['CONSOLE_SCREENSHOTS'] === '1' ? `${ROOT}docs/console/` : `${mkdtempSync(join(tmpdir(), 'gov-shots-'))}/`;
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ADMIN = { email: 'admin@acme.test', password: 'correct horse battery staple' };
const MEMBER = { email: 'member@acme.test', password: 'member password 123' };
const LOCKED = { email: 'locked@acme.test', password: 'locked password 123' };
const OWNER = { email: 'owner@acme.test', password: 'owner password 12345' };
const SCENARIO_ID = '4417';

/** One axe result as read here. */
interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

describe('console in a browser', () => {
  let t: TestServer;
  let browser: Browser;
  let results: ScenarioResults;
  const contexts: BrowserContext[] = [];
  /** Uncaught script errors per page. */
  const pageErrors = new WeakMap<Page, string[]>();

  before(async () => {
    execFileSync('bash', [`${ROOT}scripts/ensure-chromium.sh`], { stdio: 'inherit' });
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    await t.server.users.create(t.orgId, ADMIN.email, 'admin', ADMIN.password);
    await t.server.users.create(t.orgId, MEMBER.email, 'member', MEMBER.password);
    await t.server.users.create(t.orgId, LOCKED.email, 'member', LOCKED.password);
    await t.server.users.create(t.orgId, OWNER.email, 'owner', OWNER.password);
    // One real blueprint of the shared corpus (read in place, never copied), evaluated through the public API.
    const file = corpusFacts().find((f) => f.credentials.length > 0)!.file;
    await importScenario(t.server.store.scenarios, t.orgId, SCENARIO_ID, corpusText(file).replace(/^\uFEFF/, ''));
    const submitted = await t.client.call<{ data: SubmitResult }>('POST', '/evaluate', { scenario_ids: [SCENARIO_ID] });
    assert.equal(submitted.status, 200, submitted.raw);
    const done = await pollEvaluation(t.client, submitted.body.data.evaluation_id, { delaysMs: [100, 200, 500] });
    assert.equal(done.body?.data?.status, 'complete', done.raw);
    const res = await t.client.call<{ data: ScenarioResults }>('GET', `/scenarios/${SCENARIO_ID}/results`);
    results = res.body.data;
    assert.ok(
      results.violations.some((v) => v.failing_modules.length > 0),
      'the scenario has failing modules',
    );
    await t.client.call('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', description: 'CI receiver' });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
  });
  after(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  /** A fresh browser profile (no cookies) whose pages record CSP violations and script errors. */
  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: t.baseUrl });
    contexts.push(context);
    // Strings, not functions: this file is type-checked for Node (no DOM library).
    await context.addInitScript({
      content: `window.cspViolations = [];
        document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));`,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    pageErrors.set(page, errors);
    return page;
  }

  /** No CSP violation and no uncaught script error so far on `page`. */
  async function assertClean(page: Page): Promise<void> {
    const csp = await page.evaluate<string[]>('window.cspViolations');
    assert.deepEqual(csp, [], 'no CSP violation');
    assert.deepEqual(pageErrors.get(page), [], 'no uncaught error');
  }

  /** Runs axe on the page: no serious or critical violation. */
  async function axe(page: Page, name: string): Promise<void> {
    if (!(await page.evaluate<boolean>("'axe' in window"))) await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate<AxeViolation[]>('axe.run(document).then((r) => r.violations)');
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      [],
      `axe on ${name}`,
    );
  }

  /** Full-page screenshot `<name>.png` into SHOTS. */
  const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });

  async function signIn(page: Page, who: { email: string; password: string }): Promise<void> {
    await page.goto('/console/');
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  }

  /** Goes to a page through the main navigation (in-app: no reload, so no dependence on GET /session). */
  async function go(page: Page, link: string, heading: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  }

  /** The admin's signed-in page, shared by the page tests below. */
  let adminPage: Page | null = null;
  async function admin(): Promise<Page> {
    if (adminPage === null) {
      adminPage = await newPage();
      await signIn(adminPage, ADMIN);
    }
    return adminPage;
  }

  it('signs in; creates a key whose key and secret work from Node; rotates it; revokes it and the API answers 401', async () => {
    const page = await newPage();
    await page.goto('/console/');
    await page.getByRole('heading', { name: 'Sign in to the governance console' }).waitFor();
    await axe(page, 'sign-in');
    await shot(page, 'sign-in');
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
    const client = new GovernanceClient(t.baseUrl, { apiKey, signingSecret: secret });
    assert.equal(
      (await client.call('GET', '/governance/policies')).status,
      200,
      'the shown key and secret sign a call',
    );
    await page
      .getByRole('row', { name: /ci-browser/ })
      .first()
      .waitFor();
    await axe(page, 'keys (key created)');
    await shot(page, 'keys-created');
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
    const fresh = new GovernanceClient(t.baseUrl, { apiKey: newKey, signingSecret: newSecret });
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
    await axe(page, 'keys (revoke dialog)');
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
    await axe(page, 'keys');
    await shot(page, 'keys');
    await assertClean(page);
  });

  it('refuses key creation to a member (the page says so, the server answers 403)', async () => {
    const page = await newPage();
    await signIn(page, MEMBER);
    await go(page, 'API keys', 'API keys');
    await page.getByText('Key administration needs the admin role').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Create key' }).isDisabled(), true);
    const status = await page.evaluate(async (orgId) => {
      const res = await fetch('/api/v1/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ org_id: orgId, name: 'sneaky' }),
      });
      return res.status;
    }, t.orgId);
    assert.equal(status, 403, 'the server refuses a member');
    await axe(page, 'keys (member)');
    await shot(page, 'keys-member');
    await assertClean(page);
  });

  it('locks sign-in after five wrong passwords and says so', async () => {
    const page = await newPage();
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
    await axe(page, 'sign-in (locked)');
    await shot(page, 'sign-in-locked');
    await assertClean(page);
  });

  it('shows the fleet overview: rollup, badges, top violations, framework coverage, evaluations over time', async () => {
    const page = await admin();
    await go(page, 'Overview', 'Fleet overview');
    await page.getByRole('heading', { name: 'Top violations' }).waitFor();
    await page.getByRole('heading', { name: 'Framework coverage' }).waitFor();
    await page.getByRole('heading', { name: /Evaluations over the last 30 days/ }).waitFor();
    assert.ok((await page.locator('canvas').count()) >= 2, 'charts are drawn');
    const top = results.violations[0]!.policy;
    await page.getByRole('rowheader', { name: top, exact: true }).first().waitFor();
    await axe(page, 'overview');
    await shot(page, 'overview');
    await assertClean(page);
  });

  it('lists scenarios (searched on the server) and opens one', async () => {
    const page = await admin();
    await go(page, 'Scenarios', 'Scenarios');
    await page.getByLabel('Search by name or id').fill(SCENARIO_ID);
    await page
      .getByRole('status')
      .getByText(/1 scenario match/)
      .waitFor();
    await axe(page, 'scenarios');
    await shot(page, 'scenarios');
    await page.getByRole('row').filter({ hasText: SCENARIO_ID }).getByRole('link').click();
    await page.waitForURL(`**/console/scenarios/${SCENARIO_ID}`);
    await assertClean(page);
  });

  it("shows a scenario's violations, evidence, remediation and its picture with failing modules selectable", async () => {
    const page = await admin();
    if (!page.url().endsWith(`/console/scenarios/${SCENARIO_ID}`)) {
      await go(page, 'Scenarios', 'Scenarios');
      await page.getByRole('row').filter({ hasText: SCENARIO_ID }).getByRole('link').click();
    }
    await page.getByRole('heading', { name: 'Violations', level: 2 }).waitFor();
    for (const v of results.violations)
      await page
        .getByRole('heading', { level: 3, name: new RegExp(v.policy) })
        .first()
        .waitFor();
    const failing = [...new Set(results.violations.flatMap((v) => v.failing_modules.map((m) => String(m.module_id))))];
    const svg = page.locator('.scenario-svg svg');
    await svg.waitFor();
    for (const id of failing) {
      const g = svg.locator(`g.module[data-module-id="${id}"]`);
      assert.equal(await g.count(), 1, `module ${id} is drawn`);
      const marked =
        /fail|badge|critical|high|medium|low|info/.test((await g.getAttribute('class')) ?? '') ||
        (await g.getAttribute('data-badge')) !== null ||
        (await g.getAttribute('data-failing')) !== null;
      assert.ok(marked, `failing module ${id} is marked`);
    }
    // Keyboard: focus a failing module and press Enter: its findings appear.
    const first = failing[0]!;
    await svg.locator(`g.module[data-module-id="${first}"]`).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Findings of module ${first}` }).waitFor();
    const code = results.violations.find((v) => v.failing_modules.some((m) => String(m.module_id) === first))!.policy;
    await page.locator('.module-findings').getByText(code).first().waitFor();
    await axe(page, 'scenario');
    await shot(page, 'scenario');
    await assertClean(page);
  });

  it('shows webhooks and their deliveries', async () => {
    const page = await admin();
    await go(page, 'Webhooks', 'Webhooks');
    await page.getByRole('rowheader', { name: /127\.0\.0\.1:9\/hook/ }).waitFor();
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByRole('heading', { name: 'Recent deliveries' }).waitFor();
    await axe(page, 'webhooks');
    await shot(page, 'webhooks');
    await assertClean(page);
  });

  it('shows waivers and policy settings', async () => {
    const page = await admin();
    await go(page, 'Waivers & settings', 'Waivers and policy settings');
    await page.getByText(/^Version \d+/).waitFor();
    await page.getByRole('button', { name: 'Save settings' }).waitFor();
    await axe(page, 'governance');
    await shot(page, 'governance');
    await assertClean(page);
  });

  it('shows the audit log with the sign-ins and key changes', async () => {
    const page = await admin();
    await go(page, 'Audit log', 'Audit log');
    await page.locator('tbody tr').first().waitFor();
    await axe(page, 'audit');
    await shot(page, 'audit');
    await assertClean(page);
  });

  it('lets an owner add a user, whose generated password (shown once) signs in; an admin cannot', async () => {
    const page = await newPage();
    await signIn(page, OWNER);
    await go(page, 'Users', 'Users');
    await page.getByLabel('Email').fill('new.analyst@acme.test');
    await page.getByLabel('Role').selectOption('member');
    await page.getByRole('button', { name: 'Add user' }).click();
    const password = await page.getByRole('textbox', { name: 'Password' }).inputValue();
    assert.ok(password.length >= 12, 'a generated password');
    await page.getByRole('row', { name: /new\.analyst@acme\.test/ }).waitFor();
    await axe(page, 'users');
    await shot(page, 'users');
    await assertClean(page);
    const login = await fetch(`${t.baseUrl}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'new.analyst@acme.test', password }),
    });
    assert.equal(login.status, 200, 'the new account signs in with the password shown');

    const byAdmin = await admin();
    await go(byAdmin, 'Users', 'Users');
    await byAdmin.getByText('Managing users needs the owner role').waitFor();
    assert.equal(await byAdmin.getByRole('button', { name: 'Add user' }).isDisabled(), true);
    await axe(byAdmin, 'users (admin)');
  });

  it('restores the session after a reload and signs out', async () => {
    const page = await admin();
    await page.goto('/console/keys');
    // A full load: the CSRF token is gone from memory and comes back from GET /api/v1/session.
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the governance console' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to the governance console' }).waitFor();
    adminPage = null;
    await assertClean(page);
  });
});

/** The keys table's row of the key whose clear value is `apiKey` (matched by its display prefix). */
function rowOf(page: Page, apiKey: string) {
  return page.locator('tr[data-key-id]').filter({
    has: page.locator('td.mono', { hasText: new RegExp(`^${apiKey.slice(0, 13)}`) }),
  });
}
