/** @module engine/policies/docs: renders each policy's documentation page from the catalog (pure). */
import type { Policy } from './types.js';
import { CATEGORY_NAMES } from './types.js';
import { CONTROL_REGISTRY, refId } from '../frameworks/registry.js';
import { POLICIES } from './catalog.js';

/** Markdown of `docs/policies/<code>.md`. */
export function policyPage(p: Policy): string {
  const frameworks = p.compliance_frameworks.map((r) => `| ${r.framework} | ${refId(r)} | ${CONTROL_REGISTRY[r.framework][refId(r)] ?? ''} |`).join('\n');
  return `# ${p.code}: ${p.title}

- Category: **${p.category}** (${CATEGORY_NAMES[p.category]})
- Catalog severity: **${p.severity}** (findings may be raised or lowered by context)
- Remediation effort: **${p.remediation.effort}**
- Source: \`src/engine/policies/${p.category.toLowerCase()}/${p.code}.ts\`

${p.description}

## Rationale

${p.rationale}

## Avoid

${p.examples.avoid}

## Prefer

${p.examples.prefer}

## Compliance frameworks

| framework | control / article | title |
|---|---|---|
${frameworks}
`;
}

/** Markdown of `docs/policies/README.md`: the catalog index. */
export function catalogIndex(): string {
  const rows = POLICIES.map((p) => `| [${p.code}](${p.code}.md) | ${p.title} | ${p.category} | ${p.severity} |`).join('\n');
  return `# Policy catalog

${POLICIES.length} policies in ${new Set(POLICIES.map((p) => p.category)).size} categories. Codes are stable and never reused.
Generated from \`src/engine/policies/catalog.ts\` by \`npm run docs:policies\`; a test keeps these pages in step.

| code | title | category | severity |
|---|---|---|---|
${rows}
`;
}
