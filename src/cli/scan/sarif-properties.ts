/**
 * @module cli/scan/sarif-properties: the GitHub code scanning properties of a SARIF rule
 * (`properties.tags`, `properties.precision`, `properties["security-severity"]`) and its `helpUri`
 * (only with a documentation base: `--doc-base` or `$GOV_DOC_BASE`; sarif-help.ts carries the page itself).
 * GitHub's reference: "SARIF support for code scanning", reportingDescriptor object
 * (https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning#reportingdescriptor-object).
 * The mappings are documented in docs/scanner.md ("SARIF for GitHub code scanning").
 */
import { readFileSync } from 'node:fs';
import type { Severity } from '../../engine/index.js';
import type { MeasuredPrecision } from '../../engine/policies/docs.js';

/**
 * `security-severity` per severity: GitHub ranks a security alert by this score (a number in a
 * string, 0.0–10.0): over 9.0 critical, 7.0–8.9 high, 4.0–6.9 medium, 3.9 or less low. Each value
 * sits inside its band, so GitHub shows our critical as critical and so on; `info` has no band of
 * its own and shows as low.
 */
export const SECURITY_SEVERITY: Readonly<Record<Severity, string>> = {
  critical: '9.5',
  high: '8.0',
  medium: '5.5',
  low: '3.0',
  info: '1.0',
};

/** GitHub's `precision` values: how often a rule's results are true (code scanning ranks and filters by it). */
export type SarifPrecision = 'very-high' | 'high' | 'medium' | 'low';

/** One policy's entry of docs/precision.json (as written by `npm run precision -- --write`). */
interface MeasuredPolicy {
  readonly labelled: number;
  readonly precision: number | null;
}

/**
 * The GitHub `precision` of a policy from its precision measured on the labelled corpora
 * (docs/precision.md): `very-high` at ≥ 95% over ≥ 10 labelled findings, `high` at ≥ 90% over ≥ 3,
 * `low` under 75% over ≥ 3, `medium` otherwise — including policies with fewer than 3 labelled
 * findings and custom rules, whose precision was not measured.
 */
export function precisionOf(measured: MeasuredPolicy | undefined): SarifPrecision {
  if (!measured || measured.precision === null || measured.labelled < 3) return 'medium';
  if (measured.precision >= 0.95 && measured.labelled >= 10) return 'very-high';
  if (measured.precision >= 0.9) return 'high';
  if (measured.precision >= 0.75) return 'medium';
  return 'low';
}

/** The package's docs/ directory (the committed documentation, next to dist/ in a clone or a package). */
const DOCS_DIR = new URL('../../../../docs/', import.meta.url);

let measuredCache: Readonly<Record<string, MeasuredPrecision>> | undefined;

/**
 * docs/precision.json's policies (what the policy pages show, and `precisionOf` reads); empty when
 * the file cannot be read (every policy is then `medium`, its page without a precision section).
 */
export function measuredPrecision(): Readonly<Record<string, MeasuredPrecision>> {
  if (!measuredCache) {
    try {
      const doc = JSON.parse(readFileSync(new URL('precision.json', DOCS_DIR), 'utf8')) as {
        policies?: Record<string, MeasuredPrecision>;
      };
      measuredCache = doc.policies ?? {};
    } catch {
      measuredCache = {};
    }
  }
  return measuredCache;
}

/** The environment variable that sets the documentation base when `--doc-base` is not given. */
export const DOC_BASE_ENV = 'GOV_DOC_BASE';

/**
 * The URL the policy pages (`docs/policies/<code>.md`) are served under, with a trailing slash:
 * `--doc-base`, else `$GOV_DOC_BASE`, else undefined: then the log has no `helpUri` (nor
 * `informationUri`) and each rule carries its page in `help.markdown` alone. There is no default
 * on purpose: the one place every scan could point at is this checkout, a `file:` URL of the
 * machine that ran it, useless on GitHub and a leak of a local path. For GitHub, point it at the
 * pages of the revision you run, e.g. `https://github.com/<owner>/<repo>/blob/<tag>/docs/policies/`.
 * @throws TypeError when the value is not an absolute URL.
 */
export function docBase(option: string | undefined, env: NodeJS.ProcessEnv = process.env): URL | undefined {
  const raw = option ?? env[DOC_BASE_ENV];
  if (raw === undefined || raw === '') return undefined;
  const url = new URL(raw);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** The page of a policy: `<base><code>.md` for a catalog policy, custom-rules.md beside the pages for an `ORG-<n>` rule. */
export function helpUri(base: URL, code: string): string {
  return /^ORG-\d+$/.test(code) ? new URL('../custom-rules.md', base).href : new URL(`${code}.md`, base).href;
}
