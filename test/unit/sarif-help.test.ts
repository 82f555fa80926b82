/**
 * A SARIF rule's help (src/cli/scan/sarif-help.ts): a catalog policy's Markdown is its committed
 * page docs/policies/<code>.md (rendered from the catalog, its relative links made to work outside
 * the repository); a custom rule's is its own text.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Policy } from '../../src/engine/index.js';
import { POLICIES, POLICY_BY_CODE } from '../../src/engine/index.js';
import { resolveLinks, ruleHelp } from '../../src/cli/scan/sarif-help.js';
import { measuredPrecision } from '../../src/cli/scan/sarif-properties.js';

const PAGES = fileURLToPath(new URL('../../../docs/policies/', import.meta.url));

describe('SARIF rule help', () => {
  it('carries each catalog policy page, its relative links reduced to their text without a doc base', () => {
    const measured = measuredPrecision();
    for (const p of POLICIES) {
      const help = ruleHelp(p, measured[p.code], undefined);
      const page = readFileSync(`${PAGES}${p.code}.md`, 'utf8');
      assert.equal(help.markdown, page.replace(/\[([^\]]+)\]\(\.\.\/[^)]+\)/g, '$1'), p.code);
      assert.ok(!/\]\(/.test(help.markdown), `${p.code}: no link left that would point nowhere`);
      assert.ok(help.text.length > 0 && help.text.includes(p.examples.avoid), `${p.code}: plain text beside Markdown`);
    }
    const sec1 = ruleHelp(POLICY_BY_CODE.get('SEC-1')!, measured['SEC-1'], undefined).markdown;
    assert.match(sec1, /^# SEC-1: /);
    assert.match(sec1, /## Rationale\n\n/);
    assert.match(sec1, /## Measured precision\n\n.*See docs\/precision\.md for the method\./);
  });

  it('resolves relative links against the page under --doc-base and keeps absolute ones', () => {
    const base = new URL('https://github.com/acme/gov/blob/v1/docs/policies/');
    const sec1 = ruleHelp(POLICY_BY_CODE.get('SEC-1')!, measuredPrecision()['SEC-1'], base).markdown;
    assert.match(sec1, /\[docs\/precision\.md\]\(https:\/\/github\.com\/acme\/gov\/blob\/v1\/docs\/precision\.md\)/);
    const withParameters = POLICIES.find((p) => (p.parameters ?? []).length > 0)!;
    assert.match(
      ruleHelp(withParameters, undefined, base).markdown,
      /\[docs\/engine\.md\]\(https:\/\/github\.com\/acme\/gov\/blob\/v1\/docs\/engine\.md#organization-settings\)/,
    );
    assert.equal(
      resolveLinks('[a](https://x.example/a) [b](b.md) [c](mailto:c@example.org)', undefined),
      '[a](https://x.example/a) b [c](mailto:c@example.org)',
    );
  });

  it("describes a custom rule by its own text (it has no page in the catalog's docs)", () => {
    const custom: Policy = { ...POLICY_BY_CODE.get('SEC-1')!, code: 'ORG-7', title: 'No FTP uploads' };
    const help = ruleHelp(custom, undefined, undefined);
    assert.match(help.markdown, /^\*\*ORG-7: No FTP uploads\*\*\n\n/);
    assert.match(help.markdown, /custom rule/);
    assert.ok(!help.markdown.includes('src/engine/policies'), 'not the catalog page of the policy it was copied from');
    assert.equal(help.text, `${custom.rationale}\nAvoid: ${custom.examples.avoid}\nPrefer: ${custom.examples.prefer}`);
  });
});
