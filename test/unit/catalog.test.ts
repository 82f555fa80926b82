/** The catalog: size, categories, stable codes, real framework controls, docs in step with the code. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONTROL_REGISTRY, POLICIES, RETIRED_CODES, refId } from '../../src/engine/index.js';
import { catalogIndex, policyPage, type MeasuredPrecision } from '../../src/engine/policies/docs.js';

const DOCS = fileURLToPath(new URL('../../../docs/policies/', import.meta.url));
const SRC = fileURLToPath(new URL('../../../src/engine/policies/', import.meta.url));

it('has at least 40 policies in the six categories, with unique, well-formed codes never retired', () => {
  assert.ok(POLICIES.length >= 40, `${POLICIES.length} policies`);
  assert.deepEqual([...new Set(POLICIES.map((p) => p.category))].sort(), ['AI', 'ARC', 'DI', 'OPS', 'PRIV', 'SEC']);
  const codes = POLICIES.map((p) => p.code);
  assert.equal(new Set(codes).size, codes.length);
  for (const p of POLICIES) {
    assert.match(p.code, /^(SEC|DI|ARC|PRIV|AI|OPS)-\d+$/);
    assert.ok(p.code.startsWith(`${p.category}-`), p.code);
    assert.ok(!RETIRED_CODES.includes(p.code), `${p.code} is retired`);
  }
});

it('keeps one policy per file, named after its code', () => {
  for (const p of POLICIES) assert.ok(existsSync(`${SRC}${p.category.toLowerCase()}/${p.code}.ts`), p.code);
});

it('gives every policy a title, description, rationale, examples, remediation and at least one framework row', () => {
  for (const p of POLICIES) {
    for (const field of [p.title, p.description, p.rationale, p.examples.avoid, p.examples.prefer])
      assert.ok(field.length > 10, `${p.code}: ${field}`);
    assert.ok(p.compliance_frameworks.length >= 1, p.code);
    assert.ok(['low', 'medium', 'high'].includes(p.remediation.effort));
  }
});

it('cites only real controls: every framework reference is in the registry with a title', () => {
  for (const p of POLICIES) {
    for (const r of p.compliance_frameworks) {
      const table = CONTROL_REGISTRY[r.framework];
      assert.ok(table, `${p.code}: unknown framework ${r.framework}`);
      assert.ok(table[refId(r)], `${p.code}: ${r.framework} ${refId(r)} is not a registered control`);
      const isArticle = 'article' in r;
      assert.equal(
        isArticle,
        r.framework === 'GDPR' || r.framework === 'EU AI Act',
        `${p.code}: ${r.framework} uses the wrong key`,
      );
    }
  }
});

it('keeps docs/policies in step with the catalog and docs/precision.json (run `npm run docs:policies`)', () => {
  const measured = (
    JSON.parse(readFileSync(`${DOCS}../precision.json`, 'utf8')) as { policies: Record<string, MeasuredPrecision> }
  ).policies;
  for (const p of POLICIES) {
    assert.ok(measured[p.code], `${p.code} has no measured precision (run \`npm run precision -- --write\`)`);
    assert.equal(readFileSync(`${DOCS}${p.code}.md`, 'utf8'), policyPage(p, measured[p.code]), `${p.code}.md is stale`);
  }
  assert.equal(readFileSync(`${DOCS}README.md`, 'utf8'), catalogIndex());
  const pages = readdirSync(DOCS)
    .filter((f) => f !== 'README.md')
    .map((f) => f.replace(/\.md$/, ''));
  assert.deepEqual(
    pages.sort(),
    POLICIES.map((p) => p.code).sort(),
    'a page exists for a policy that is not in the catalog',
  );
});
