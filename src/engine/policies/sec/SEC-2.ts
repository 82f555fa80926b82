/** @module engine/policies/sec/SEC-2: credentials carried in URL query strings. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { CREDENTIAL_NAMES, normalizeName } from '../../secrets/patterns.js';
import { isMapped, isPlaceholder } from '../../secrets/scan.js';
import { blueprintSecrets } from '../../secrets/credentials.js';
import { moduleUrl } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';

/** Query parameter names in a literal URL (`?auth=...&x=1` → `['auth','x']` with values). */
function queryParams(url: string): { name: string; value: string }[] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  const hash = url.indexOf('#', q);
  return url
    .slice(q + 1, hash < 0 ? undefined : hash)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? { name: pair, value: '' } : { name: pair.slice(0, eq), value: pair.slice(eq + 1) };
    });
}

/**
 * True when SEC-1 reports this literal value (issue 32: SEC-2 does not repeat SEC-1 on the same
 * literal): SEC-1's finding on it already says that it travels in a URL query string. The value is
 * compared as written and URL-decoded; SEC-1's secret may be the whole value or a part of it.
 */
function reportedBySec1(value: string, literals: ReadonlySet<string>): boolean {
  if (literals.has(value)) return true;
  let decoded = value;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    // not URL-encoded: compared as written
  }
  if (literals.has(decoded)) return true;
  for (const l of literals) if (value.includes(l) || decoded.includes(l)) return true;
  return false;
}

/**
 * SEC-2: a credential sent in the URL, where proxies, logs and Make's execution history keep it. A
 * literal credential that SEC-1 reports is SEC-1's (one finding per literal secret, issue 32); SEC-2
 * reports credentials mapped at run time and literals SEC-1 does not find.
 */
export const SEC_2: Policy = {
  code: 'SEC-2',
  title: 'Credential sent in a URL query string',
  category: 'SEC',
  severity: 'high',
  description:
    'An HTTP request passes a credential as a query-string parameter, where server logs, proxies and execution history record it (a literal credential is reported once, by SEC-1).',
  rationale:
    'URLs are logged by every proxy and server on the path and shown in Make execution logs; credentials belong in headers or in the connection. CWE-598 (Use of GET request method with sensitive query strings).',
  compliance_frameworks: [
    ref(F.soc2, 'CC6.1'),
    ref(F.soc2, 'CC6.7'),
    ref(F.iso27001, 'A.5.17'),
    ref(F.nist, 'SC-8'),
    ref(F.pci, '8.3.2'),
  ],
  examples: {
    avoid:
      '`"url": "https://x.firebaseio.com/users.json?auth=<token>"` or `"qs": [{ "name": "api_key", "value": "{{9.value}}" }]`',
    prefer: 'Send the credential in a header (`Authorization: Bearer {{9.value}}`) or use an app connection.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    let sec1: ReadonlySet<string> | null = null;
    for (const m of analysis.graph.modules) {
      if (m.app !== 'http') continue;
      const url = moduleUrl(m);
      const params = url ? queryParams(url).map((p) => ({ ...p, where: 'url' as const })) : [];
      // `qs` of the legacy HTTP modules, `queryParameters` of *Make a request* (`http:MakeRequest`, v4).
      const qsKey = Array.isArray(m.mapper?.['queryParameters']) ? 'queryParameters' : 'qs';
      const qs = m.mapper?.[qsKey];
      if (Array.isArray(qs)) {
        for (const entry of qs) {
          if (entry && typeof entry === 'object' && !Array.isArray(entry) && typeof entry['name'] === 'string') {
            params.push({
              name: entry['name'],
              value: typeof entry['value'] === 'string' ? entry['value'] : '',
              where: 'url',
            });
          }
        }
      }
      for (const p of params) {
        if (
          !CREDENTIAL_NAMES.has(normalizeName(p.name)) ||
          p.value === '' ||
          (!isMapped(p.value) && isPlaceholder(p.value))
        )
          continue;
        const literal = !isMapped(p.value);
        if (literal && reportedBySec1(p.value, (sec1 ??= blueprintSecrets(analysis).literals))) continue;
        findings.push({
          moduleId: m.id,
          reason: `query parameter \`${p.name}\` carries ${literal ? 'a literal credential' : 'a credential mapped at run time'} in the URL`,
          severity: literal ? 'high' : 'medium',
          evidence: {
            pointer: `${m.pointer}/mapper/${url && queryParams(url).some((x) => x.name === p.name) ? 'url' : qsKey}`,
          },
        });
      }
    }
    if (findings.length === 0) return null;
    const literal = findings.some((f) => f.severity === 'high');
    return {
      status: literal ? 'fail' : 'warn',
      findings,
      summary: `${findings.length} request${findings.length === 1 ? '' : 's'} put a credential in the URL query string`,
    };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) =>
          `In ${moduleRef(m)}, move the credential out of the URL query string into a request **header** (for example \`Authorization\`) or the app's connection.`,
      );
      steps.push('Rotate any credential that was sent in a URL: it is already in server and proxy logs.');
      return steps;
    },
  },
};
