/**
 * The web console in a real browser (issue 18): the shared set-up of the browser test files. Debian's
 * Chromium is driven by playwright-core against the real server, under the console's real CSP. Every
 * page is checked with axe-core (no serious or critical violation), watched for CSP violations and
 * page errors, and photographed into docs/console/*.png (embedded in docs/console.md).
 *
 * The browser tests are split over several files (each runs within the per-file test timeout of
 * `npm test`, even on a slow box); each file calls {@link useConsoleBrowser} inside its `describe`.
 *
 * axe is injected with `page.evaluate(source)`: code evaluated through the DevTools protocol is not
 * subject to the page's CSP, so the page keeps its real policy. `addScriptTag({ content })` would add
 * an inline script that the CSP (rightly) refuses, and `bypassCSP: true` is a context option: it
 * would switch the CSP off for the whole page and hide the very violations these tests look for.
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { pollEvaluation } from '../../src/client/client.js';
import type { ScenarioResults, SubmitResult } from '../../src/client/responses.js';
import { importScenario } from '../../src/actors/scenarios.js';
import { startTestServer, type TestServer } from './server.js';
import { fixtureText } from './fixtures.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/**
 * Screenshots go to docs/console/ only when asked (`npm run docs:console`, CONSOLE_SCREENSHOTS=1), so
 * a test run never changes tracked files; otherwise to a temporary directory (still taken: a page
 * that cannot be captured fails the test).
 */
const SHOTS =
  process.env['CONSOLE_SCREENSHOTS'] === '1' ? `${ROOT}docs/console/` : `${mkdtempSync(join(tmpdir(), 'gov-shots-'))}/`;
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A console account of the test organization. */
export interface ConsoleAccount {
  readonly email: string;
  readonly password: string;
}
export const ADMIN: ConsoleAccount = { email: 'admin@acme.test', password: 'correct horse battery staple' };
export const MEMBER: ConsoleAccount = { email: 'member@acme.test', password: 'member password 123' };
export const LOCKED: ConsoleAccount = { email: 'locked@acme.test', password: 'locked password 123' };
export const OWNER: ConsoleAccount = { email: 'owner@acme.test', password: 'owner password 12345' };
/** The id of the one evaluated scenario (the fixture corpus's `secrets-everywhere`). */
export const SCENARIO_ID = '4417';

/** One axe result as read here. */
interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

/** What a browser test file gets from {@link useConsoleBrowser}; valid once its `before` hook ran. */
export interface ConsoleBrowser {
  /** The running server. */
  readonly t: TestServer;
  /** The evaluated scenario's results, as the public API returned them. */
  readonly results: ScenarioResults;
  /** A fresh browser profile (no cookies) whose pages record CSP violations and script errors. */
  newPage(): Promise<Page>;
  /** No CSP violation and no uncaught script error so far on `page`. */
  assertClean(page: Page): Promise<void>;
  /** Runs axe on the page: no serious or critical violation. */
  axe(page: Page, name: string): Promise<void>;
  /** Full-page screenshot `<name>.png` into the screenshot directory. */
  shot(page: Page, name: string): Promise<Buffer>;
  /** Signs `who` in on `page` and waits for the main navigation. */
  signIn(page: Page, who: ConsoleAccount): Promise<void>;
  /** Goes to a page through the main navigation (in-app: no reload, so no dependence on GET /session). */
  go(page: Page, link: string, heading: string): Promise<void>;
  /** The admin's signed-in page, shared by the tests of one file. */
  admin(): Promise<Page>;
  /** Forgets the shared admin page (after it signed out). */
  forgetAdmin(): void;
}

/**
 * Registers the `before`/`after` hooks of a browser test file (call it inside `describe`): installs
 * Debian's Chromium where missing, starts the real server with four console accounts (admin, member,
 * locked, owner), imports and evaluates one blueprint with credentials through the public API,
 * registers a webhook, and launches Chromium.
 */
export function useConsoleBrowser(): ConsoleBrowser {
  let t: TestServer | undefined;
  let browser: Browser | undefined;
  let results: ScenarioResults | undefined;
  const contexts: BrowserContext[] = [];
  const pageErrors = new WeakMap<Page, string[]>();
  let adminPage: Page | null = null;

  before(async () => {
    execFileSync('bash', [`${ROOT}scripts/ensure-chromium.sh`], { stdio: 'inherit' });
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    await t.server.users.create(t.orgId, ADMIN.email, 'admin', ADMIN.password);
    await t.server.users.create(t.orgId, MEMBER.email, 'member', MEMBER.password);
    await t.server.users.create(t.orgId, LOCKED.email, 'member', LOCKED.password);
    await t.server.users.create(t.orgId, OWNER.email, 'owner', OWNER.password);
    // A blueprint of the repository's fixture corpus with five hard-coded credentials, evaluated through the public API.
    const text = fixtureText('secrets-everywhere.blueprint.json');
    await importScenario(t.server.store.scenarios, t.orgId, SCENARIO_ID, text);
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

  const handle: ConsoleBrowser = {
    get t() {
      assert.ok(t, 'the server runs (before hook)');
      return t;
    },
    get results() {
      assert.ok(results, 'the scenario was evaluated (before hook)');
      return results;
    },
    async newPage() {
      assert.ok(browser, 'the browser runs (before hook)');
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: handle.t.baseUrl });
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
    },
    async assertClean(page) {
      const csp = await page.evaluate<string[]>('window.cspViolations');
      assert.deepEqual(csp, [], 'no CSP violation');
      assert.deepEqual(pageErrors.get(page), [], 'no uncaught error');
    },
    async axe(page, name) {
      if (!(await page.evaluate<boolean>("'axe' in window"))) await page.evaluate(AXE_SOURCE);
      const violations = await page.evaluate<AxeViolation[]>('axe.run(document).then((r) => r.violations)');
      const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(
        bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        [],
        `axe on ${name}`,
      );
    },
    shot: (page, name) => page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true }),
    async signIn(page, who) {
      await page.goto('/console/');
      await page.getByLabel('Email').fill(who.email);
      await page.getByLabel('Password').fill(who.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
    },
    async go(page, link, heading) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    },
    async admin() {
      if (adminPage === null) {
        adminPage = await handle.newPage();
        await handle.signIn(adminPage, ADMIN);
      }
      return adminPage;
    },
    forgetAdmin() {
      adminPage = null;
    },
  };
  return handle;
}

/** The keys table's row of the key whose clear value is `apiKey` (matched by its display prefix). */
export function rowOf(page: Page, apiKey: string) {
  return page.locator('tr[data-key-id]').filter({
    has: page.locator('td.mono', { hasText: new RegExp(`^${apiKey.slice(0, 13)}`) }),
  });
}
