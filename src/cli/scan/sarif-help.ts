/**
 * @module cli/scan/sarif-help: a SARIF rule's `help` (`text` and `markdown`). GitHub code scanning
 * shows `help.markdown` beside an alert, so it carries the policy's whole page: the Markdown of
 * docs/policies/<code>.md, rendered from the catalog by the same function that writes those pages
 * (engine/policies/docs.ts `policyPage`, `npm run docs:policies`), not read from disk. SARIF 2.1.0
 * (§3.12.2) wants `text` wherever there is `markdown`: the rationale, Avoid and Prefer as plain text.
 */
import type { Policy } from '../../engine/index.js';
import { POLICY_BY_CODE } from '../../engine/index.js';
import { policyPage, type MeasuredPrecision } from '../../engine/policies/docs.js';
import { helpUri } from './sarif-properties.js';

/** A SARIF `multiformatMessageString`: the plain text and the GitHub-flavoured Markdown of a rule's help. */
export interface RuleHelp {
  readonly text: string;
  readonly markdown: string;
}

/** A Markdown inline link: `[text](target)`. */
const LINK = /\[([^\]]+)\]\(([^)\s]+)\)/g;

/** Whether `target` is an absolute URL (has a scheme), which needs no base. */
function absolute(target: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(target);
}

/**
 * The links of a policy page made to work outside the repository: a relative link (`../precision.md`)
 * is resolved against the page's own URL under `base` (`--doc-base`); without a base it would point
 * nowhere, so it becomes its link text (`docs/precision.md`). Absolute links are kept.
 */
export function resolveLinks(markdown: string, page: URL | undefined): string {
  return markdown.replace(LINK, (whole, text: string, target: string) => {
    if (absolute(target)) return whole;
    return page ? `[${text}](${new URL(target, page).href})` : text;
  });
}

/**
 * The help of a rule. A catalog policy's Markdown is its documentation page (with `measured`, the
 * measured precision that page shows); a custom `ORG-<n>` rule has no page of its own, so its
 * Markdown is its title, rationale, Avoid and Prefer. `base` is the documentation base
 * (`--doc-base`, sarif-properties.ts `docBase`), or undefined when none was given.
 */
export function ruleHelp(p: Policy, measured: MeasuredPrecision | undefined, base: URL | undefined): RuleHelp {
  const text = `${p.rationale}\nAvoid: ${p.examples.avoid}\nPrefer: ${p.examples.prefer}`;
  if (POLICY_BY_CODE.get(p.code) !== p) {
    const markdown = `**${p.code}: ${p.title}**\n\n${p.description}\n\n${p.rationale}\n\n*Avoid:* ${p.examples.avoid}\n\n*Prefer:* ${p.examples.prefer}\n\nA custom rule of your organization (see the service's docs/custom-rules.md).\n`;
    return { text, markdown };
  }
  const page = base ? new URL(helpUri(base, p.code)) : undefined;
  return { text, markdown: resolveLinks(policyPage(p, measured), page) };
}
