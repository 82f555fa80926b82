/**
 * The web console in a real browser, issue 30: remediation Markdown is rendered, and HTML that a blueprint
 * smuggles into it (a module label reaches the remediation steps through `**Label** (module 1, ...)`) stays
 * text: no element is created, no handler runs, no link exists (not even an https one), no CSP violation is reported.
 * The scenario is our own small blueprint, so this file depends on no corpus blueprint.
 * The shared set-up and what every page is checked for: test/helpers/console-browser.ts.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pollEvaluation } from '../../src/client/client.js';
import type { SubmitResult } from '../../src/client/responses.js';
import { importScenario } from '../../src/actors/scenarios.js';
import { bp, breakHandler, fakeToken, m } from '../helpers/blueprints.js';
import { useConsoleBrowser } from '../helpers/console-browser.js';

const ID = '9301';
/** Each payload would set `window.xss` if it ever became markup (the CSP would also refuse the inline handlers and report it). */
const LABEL =
  'CRM <img src=x onerror="window.xss=1"> <svg onload="window.xss=2"> [click](javascript:window.xss=3) ' +
  '<a href="javascript:window.xss=4">a</a> [docs](https://evil.example/phish)';

describe('console in a browser: Markdown of remediation and findings', () => {
  const b = useConsoleBrowser();

  before(async () => {
    const blueprint = bp([
      m(1, 'http:MakeRequest', {
        version: 4,
        mapper: {
          url: 'https://api.example.com',
          headers: [{ name: 'Authorization', value: `Bearer ghp_${fakeToken(11, 36)}` }],
        },
        metadata: { designer: { x: 0, y: 0, name: LABEL } },
        onerror: breakHandler(9),
      }),
    ]);
    await importScenario(b.t.server.store.scenarios, b.t.orgId, ID, JSON.stringify(blueprint));
    const submitted = await b.t.client.call<{ data: SubmitResult }>('POST', '/evaluate', { scenario_ids: [ID] });
    assert.equal(submitted.status, 200, submitted.raw);
    const done = await pollEvaluation(b.t.client, submitted.body.data.evaluation_id, { delaysMs: [100, 200, 500] });
    assert.equal(done.body?.data?.status, 'complete', done.raw);
  });

  it('renders remediation Markdown, and HTML in a module label stays text that creates no element', async () => {
    const page = await b.admin();
    await b.go(page, 'Scenarios', 'Scenarios');
    await page.getByLabel('Search by name or id').fill(ID);
    await page.getByRole('row').filter({ hasText: ID }).getByRole('link').click();
    await page.waitForURL(`**/console/scenarios/${ID}`);
    const sec1 = page.locator('article.violation[aria-labelledby="v-SEC-1"]');
    await sec1.waitFor();

    // SEC-1's first step is `**Revoke and rotate** every exposed credential ...`; the second names the module.
    await sec1.locator('ol > li strong', { hasText: 'Revoke and rotate' }).waitFor();
    assert.ok((await sec1.locator('ol > li code', { hasText: 'http:MakeRequest' }).count()) > 0, 'code span rendered');
    assert.doesNotMatch(await page.locator('main').innerText(), /\*\*/, 'no literal ** on the page');

    // The label reached the Markdown (shown as text inside <strong>) and made nothing of its own.
    const label = sec1.locator('ol > li strong', { hasText: 'CRM <img src=x onerror=' });
    await label.waitFor();
    assert.match(await label.innerText(), /<svg onload="window\.xss=2">/);
    assert.equal(await page.locator('main img, main iframe, main script').count(), 0, 'no element from the label');
    assert.equal(await page.locator('main [onerror], main [onload]').count(), 0, 'no handler attribute');
    assert.equal(await page.locator('main svg[onload], .violation svg').count(), 0, 'no svg outside the picture');
    assert.equal(await page.locator('a[href^="javascript:" i]').count(), 0, 'no javascript: link');
    assert.equal(await page.locator('a[href*="evil.example"]').count(), 0, 'a link planted in a label stays text');
    assert.equal(await page.evaluate<unknown>('window.xss'), undefined, 'no payload ran');
    await b.axe(page, 'scenario-markdown');
    await b.assertClean(page);
  });
});
