/**
 * The web console in a real browser (issue 18), part 2: the fleet and governance pages.
 * The shared set-up and what every page is checked for: test/helpers/console-browser.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pollEvaluation } from '../../src/client/client.js';
import type { ScenarioResults, SubmitResult } from '../../src/client/responses.js';
import { importScenario } from '../../src/actors/scenarios.js';
import { SCENARIO_ID, useConsoleBrowser } from '../helpers/console-browser.js';
import { fixtureText } from '../helpers/fixtures.js';

/** The id of the scenario with data-flow findings (the fixture corpus's `order-webhook-router`). */
const FLOW_ID = '5120';

describe('console in a browser: fleet and governance pages', () => {
  const b = useConsoleBrowser();

  it('shows the fleet overview: rollup, badges, top violations, framework coverage, evaluations over time', async () => {
    const page = await b.admin();
    await b.go(page, 'Overview', 'Fleet overview');
    await page.getByRole('heading', { name: 'Top violations' }).waitFor();
    await page.getByRole('heading', { name: 'Framework coverage' }).waitFor();
    await page.getByRole('heading', { name: /Evaluations over the last 30 days/ }).waitFor();
    assert.ok((await page.locator('canvas').count()) >= 2, 'charts are drawn');
    const top = b.results.violations[0]!.policy;
    await page.getByRole('rowheader', { name: top, exact: true }).first().waitFor();
    // Issue 30: the rollup carries the catalog's severity of each policy, and the column says so.
    const severityHeader = page.getByRole('columnheader', { name: 'Catalog severity' });
    await severityHeader.waitFor();
    assert.match(
      (await severityHeader.getAttribute('title')) ?? '',
      /severity in the catalog.*findings may be rated lower/,
    );
    await b.axe(page, 'overview');
    await b.shot(page, 'overview');
    await b.assertClean(page);
  });

  it('lists scenarios (searched on the server) and opens one', async () => {
    const page = await b.admin();
    await b.go(page, 'Scenarios', 'Scenarios');
    await page.getByLabel('Search by name or id').fill(SCENARIO_ID);
    await page
      .getByRole('status')
      .getByText(/1 scenario match/)
      .waitFor();
    await b.axe(page, 'scenarios');
    await b.shot(page, 'scenarios');
    await page.getByRole('row').filter({ hasText: SCENARIO_ID }).getByRole('link').click();
    await page.waitForURL(`**/console/scenarios/${SCENARIO_ID}`);
    await b.assertClean(page);
  });

  it("shows a scenario's violations, evidence, remediation and its picture with failing modules selectable", async () => {
    const page = await b.admin();
    if (!page.url().endsWith(`/console/scenarios/${SCENARIO_ID}`)) {
      await b.go(page, 'Scenarios', 'Scenarios');
      await page.getByRole('row').filter({ hasText: SCENARIO_ID }).getByRole('link').click();
    }
    await page.getByRole('heading', { name: 'Violations', level: 2 }).waitFor();
    for (const v of b.results.violations)
      await page
        .getByRole('heading', { level: 3, name: new RegExp(v.policy) })
        .first()
        .waitFor();
    const failing = [
      ...new Set(b.results.violations.flatMap((v) => v.failing_modules.map((m) => String(m.module_id)))),
    ];
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
    const code = b.results.violations.find((v) => v.failing_modules.some((m) => String(m.module_id) === first))!.policy;
    await page.locator('.module-findings').getByText(code).first().waitFor();
    // Issue 30: remediation and evidence Markdown is rendered, never shown raw (SEC-1's steps hold `**` and code spans).
    assert.ok(
      b.results.violations.some((v) => v.policy === 'SEC-1'),
      'the scenario has a SEC-1 finding (a hard-coded credential)',
    );
    // The remediation lists only: evidence values quote the blueprint as is, and a blueprint may hold `**`.
    const steps = await page.locator('article.violation ol').allInnerTexts();
    assert.ok(steps.length > 0);
    assert.doesNotMatch(steps.join('\n'), /\*\*/, 'no literal ** in remediation');
    const sec1 = page.locator('article.violation[aria-labelledby="v-SEC-1"]');
    assert.ok((await sec1.locator('ol > li strong').count()) > 0, 'remediation renders <strong>');
    assert.ok((await sec1.locator('ol > li code').count()) > 0, 'remediation renders <code>');
    await b.axe(page, 'scenario');
    await b.shot(page, 'scenario');
    await b.assertClean(page);
  });

  it('shows the evidence path of a finding about data moving: source → steps → sink, marked on the picture, selectable', async () => {
    // The repository's order webhook blueprint: the customer's name and e-mail reach modules that keep or send them (PRIV-2, PRIV-3).
    await importScenario(
      b.t.server.store.scenarios,
      b.t.orgId,
      FLOW_ID,
      fixtureText('order-webhook-router.blueprint.json'),
    );
    const submitted = await b.t.client.call<{ data: SubmitResult }>('POST', '/evaluate', { scenario_ids: [FLOW_ID] });
    assert.equal(submitted.status, 200, submitted.raw);
    const done = await pollEvaluation(b.t.client, submitted.body.data.evaluation_id, { delaysMs: [100, 200, 500] });
    assert.equal(done.body?.data?.status, 'complete', done.raw);
    const results = (await b.t.client.call<{ data: ScenarioResults }>('GET', `/scenarios/${FLOW_ID}/results`)).body
      .data;
    // A finding whose source note names a field in backticks (rendered as a code span below).
    const v = results.violations.find((x) => x.failing_modules[0]?.evidence?.path?.[0]?.note?.includes('`'))!;
    assert.ok(v, 'a violation whose first finding has an evidence path with a field in its source note');
    const path = v.failing_modules[0]!.evidence!.path!;
    assert.ok(path.length >= 2 && path[0]!.role === 'source' && path.at(-1)!.role === 'sink');

    const page = await b.admin();
    await b.go(page, 'Scenarios', 'Scenarios');
    await page.getByLabel('Search by name or id').fill(FLOW_ID);
    await page.getByRole('row').filter({ hasText: FLOW_ID }).getByRole('link').click();
    await page.waitForURL(`**/console/scenarios/${FLOW_ID}`);
    const shown = page
      .locator(`article.violation[aria-labelledby="v-${v.policy}"]`)
      .getByRole('list', { name: 'Evidence path' })
      .first();
    await shown.waitFor();
    const items = shown.locator('li');
    assert.equal(await items.count(), path.length);
    for (const [i, step] of path.entries()) {
      const text = await items.nth(i).innerText();
      assert.ok(text.includes(step.module_name) && text.includes(`#${step.module_id}`), text);
      assert.match(
        text,
        new RegExp(`^(→\\s*)?${step.role === 'source' ? 'Source' : step.role === 'sink' ? 'Sink' : 'Step'}`),
      );
    }
    // The note is Markdown rendered (a code span), never raw backticks.
    assert.ok((await items.first().locator('code').count()) > 0, 'the source note renders its field as code');
    assert.doesNotMatch(await shown.innerText(), /`/);

    // Hovering the path marks its modules in the picture; clicking a step selects that module.
    const svg = page.locator('.scenario-svg svg');
    await shown.hover();
    const onPath = svg.locator('g.module.on-path');
    const marked: string[] = [];
    for (let i = 0; i < (await onPath.count()); i++)
      marked.push((await onPath.nth(i).getAttribute('data-module-id')) ?? '');
    assert.deepEqual(marked.sort(), [...new Set(path.map((s) => String(s.module_id)))].sort());
    const source = String(path[0]!.module_id);
    await items.first().getByRole('button').click();
    await page.getByRole('heading', { name: `Findings of module ${source}` }).waitFor();
    assert.match(
      (await svg.locator(`g.module[data-module-id="${source}"]`).getAttribute('class')) ?? '',
      /\bselected\b/,
    );
    // Every finding with a risk-model row says which row set its severity.
    for (const f of results.violations.flatMap((x) => x.failing_modules))
      if (f.evidence?.risk) await page.getByText(`Severity set by ${f.evidence.risk.row}`).first().waitFor();
    await b.axe(page, 'scenario-evidence');
    await b.shot(page, 'scenario-evidence');
    await b.assertClean(page);
  });

  it('shows webhooks and their deliveries', async () => {
    const page = await b.admin();
    await b.go(page, 'Webhooks', 'Webhooks');
    await page.getByRole('rowheader', { name: /127\.0\.0\.1:9\/hook/ }).waitFor();
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByRole('heading', { name: 'Recent deliveries' }).waitFor();
    await b.axe(page, 'webhooks');
    await b.shot(page, 'webhooks');
    await b.assertClean(page);
  });

  it('shows waivers and policy settings', async () => {
    const page = await b.admin();
    await b.go(page, 'Waivers & settings', 'Waivers and policy settings');
    await page.getByText(/^Version \d+/).waitFor();
    await page.getByRole('button', { name: 'Save settings' }).waitFor();
    await b.axe(page, 'governance');
    await b.shot(page, 'governance');
    await b.assertClean(page);
  });

  it('shows the audit log with the sign-ins and key changes', async () => {
    const page = await b.admin();
    await b.go(page, 'Audit log', 'Audit log');
    await page.locator('tbody tr').first().waitFor();
    await b.axe(page, 'audit');
    await b.shot(page, 'audit');
    await b.assertClean(page);
  });
});
