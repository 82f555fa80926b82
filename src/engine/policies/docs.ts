/** @module engine/policies/docs: renders each policy's documentation page from the catalog (pure). */
import type { Policy, PolicyParameter } from './types.js';
import { CATEGORY_NAMES } from './types.js';
import { CONTROL_REGISTRY, refId } from '../frameworks/registry.js';
import { POLICIES } from './catalog.js';

/**
 * A policy's measured precision on the labelled corpora (one entry of `docs/precision.json`,
 * written by `npm run precision -- --write`): findings reported, labelled, labelled true, and the
 * same per severity.
 */
export interface MeasuredPrecision {
  readonly reported: number;
  readonly labelled: number;
  readonly true: number;
  readonly precision: number | null;
  readonly ok_cases: number;
  readonly by_severity: Readonly<
    Partial<Record<string, { readonly reported: number; readonly labelled: number; readonly true: number }>>
  >;
}

/** The "Measured precision" section of a policy page (issue 14: the catalog page shows the policy's precision). */
function measuredSection(m: MeasuredPrecision | undefined): string {
  if (!m) return '';
  const share = (t: number, n: number) => `${t} of ${n} (${((t / n) * 100).toFixed(t === n ? 0 : 1)}%)`;
  const bySeverity = ['critical', 'high', 'medium', 'low', 'info'].flatMap((s) => {
    const c = m.by_severity[s];
    return c
      ? [`| ${s} | ${c.reported} | ${c.labelled} | ${c.labelled === 0 ? '–' : share(c.true, c.labelled)} |`]
      : [];
  });
  const head =
    m.reported === 0
      ? `Not reported on the labelled corpora; ${m.ok_cases} look-alike${m.ok_cases === 1 ? '' : 's'} there must not fire and do not.`
      : `On the labelled corpora: ${m.reported} finding${m.reported === 1 ? '' : 's'} reported, ${m.labelled} reviewed, ${m.labelled === 0 ? 'none' : share(m.true, m.labelled)} true at the severity reported; ${m.ok_cases} look-alike${m.ok_cases === 1 ? '' : 's'} that must not fire and do not.`;
  return `
## Measured precision

${head} See [docs/precision.md](../precision.md) for the method.
${
  bySeverity.length === 0
    ? ''
    : `
| severity | reported | reviewed | true |
|---|---:|---:|---|
${bySeverity.join('\n')}
`
}`;
}

/** A parameter's default and bounds as Markdown table cells. */
function parameterCells(p: PolicyParameter): [string, string] {
  if (p.type === 'integer') return [`\`${p.default}\``, `${p.minimum} to ${p.maximum}`];
  const bounds = `at most ${p.maxItems} items, each matching \`${p.itemPattern.replace(/\|/g, '\\|')}\``;
  return [p.default.length === 0 ? '`[]` (no restriction)' : `\`${JSON.stringify(p.default)}\``, bounds];
}

/** The "Parameters" section of a policy page (issue 17: organization settings), empty when it declares none. */
function parametersSection(p: Policy): string {
  if (!p.parameters || p.parameters.length === 0) return '';
  const rows = p.parameters.map((x) => {
    const [def, bounds] = parameterCells(x);
    return `| \`${x.name}\` | ${x.type} | ${def} | ${bounds} | ${x.description} |`;
  });
  return `
## Parameters

Set by an organization in its settings (\`parameters\`, by name); see [docs/engine.md](../engine.md#organization-settings).

| name | type | default | bounds | meaning |
|---|---|---|---|---|
${rows.join('\n')}
`;
}

/** Markdown of `docs/policies/<code>.md`; `measured` adds the policy's measured precision. */
export function policyPage(p: Policy, measured?: MeasuredPrecision): string {
  const frameworks = p.compliance_frameworks
    .map((r) => `| ${r.framework} | ${refId(r)} | ${CONTROL_REGISTRY[r.framework][refId(r)] ?? ''} |`)
    .join('\n');
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
${parametersSection(p)}
## Compliance frameworks

| framework | control / article | title |
|---|---|---|
${frameworks}
${measuredSection(measured)}`;
}

/** Markdown of `docs/policies/README.md`: the catalog index. */
export function catalogIndex(): string {
  const rows = POLICIES.map((p) => `| [${p.code}](${p.code}.md) | ${p.title} | ${p.category} | ${p.severity} |`).join(
    '\n',
  );
  return `# Policy catalog

${POLICIES.length} policies in ${new Set(POLICIES.map((p) => p.category)).size} categories. Codes are stable and never reused.
Generated from \`src/engine/policies/catalog.ts\` by \`npm run docs:policies\`; a test keeps these pages in step.

| code | title | category | severity |
|---|---|---|---|
${rows}
`;
}
