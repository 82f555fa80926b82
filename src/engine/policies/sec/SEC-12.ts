/**
 * @module engine/policies/sec/SEC-12: an HTTP module calls a domain outside the organization's
 * approved list (issue 17: `allowed_http_domains`). Sources: OWASP SSRF Prevention Cheat Sheet
 * (allow-list destination hosts), NIST SP 800-53 SC-7 boundary protection and AC-4 information flow
 * enforcement; Make HTTP app (the `url` of *Make a request*, `http:ActionSendData`, `http:MakeRequest`...).
 */
import type { Finding, Policy, StringListParameter } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify, urlHost } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';
import { paramValue } from '../params.js';
import { mappedUrlPart, urlField } from './request-url.js';

/** `allowed_http_domains` (issue 17): hosts HTTP modules may call; `*.example.org` matches every subdomain. */
export const ALLOWED_HTTP_DOMAINS: StringListParameter = {
  name: 'allowed_http_domains',
  type: 'string-list',
  description:
    'Hosts HTTP modules may call: `api.example.com` matches that host exactly, `*.example.org` every subdomain of `example.org` (not `example.org` itself; list both for both). When non-empty, an HTTP module whose literal URL host matches no entry fails (high); one whose host is mapped at run time is a low `warn`. Empty: no restriction.',
  default: [],
  maxItems: 500,
  itemPattern: '^(\\*\\.)?[a-z0-9-]{1,63}(\\.[a-z0-9-]{1,63})*$',
  itemMaxLength: 253,
};

/** True when `host` (lower case) is `entry`, or a subdomain of `d` for an entry `*.d`. */
export function domainAllowed(host: string, allowed: readonly string[]): boolean {
  return allowed.some((e) => (e.startsWith('*.') ? host.endsWith(e.slice(1)) : e === host));
}

/** SEC-12: HTTP calls to hosts outside `allowed_http_domains`. */
export const SEC_12: Policy = {
  code: 'SEC-12',
  title: 'Outbound HTTP call to an unapproved domain',
  category: 'SEC',
  severity: 'high',
  description:
    "An HTTP module calls a host that is not on the organization's approved domains (`allowed_http_domains`), so data leaves to, or instructions come from, a destination nobody approved. A URL whose host is mapped at run time cannot be checked and is reported low (SEC-6 judges who chooses it). Reported only when the organization sets the list.",
  rationale:
    'Egress to approved destinations only is a boundary control (NIST SP 800-53 SC-7 boundary protection, AC-4 information flow enforcement; ISO/IEC 27001 A.8.20 networks security and A.8.12 data leakage prevention; SOC 2 CC6.6, CC6.7 restriction of transmission). The OWASP SSRF Prevention Cheat Sheet allow-lists destination hosts rather than deny-listing bad ones.',
  compliance_frameworks: [
    ref(F.soc2, 'CC6.7'),
    ref(F.soc2, 'CC6.6'),
    ref(F.nist, 'SC-7'),
    ref(F.nist, 'AC-4'),
    ref(F.iso27001, 'A.8.20'),
    ref(F.iso27001, 'A.8.12'),
  ],
  examples: {
    avoid: '`allowed_http_domains: ["api.example.com"]` and `"url": "https://collector.example.net/0b1c"`.',
    prefer: '`"url": "https://api.example.com/v2/orders"`, or a subdomain listed as `*.example.org`.',
  },
  parameters: [ALLOWED_HTTP_DOMAINS],
  evaluate(analysis, params) {
    const allowed = paramValue(params, ALLOWED_HTTP_DOMAINS);
    if (allowed.length === 0) return null;
    const findings: Finding[] = [];
    let literal = 0;
    for (const m of analysis.graph.modules) {
      if (!classify(m).http) continue;
      const url = urlField(m);
      if (!url) continue;
      if (mappedUrlPart(url.value) !== null) {
        findings.push({
          moduleId: m.id,
          reason: 'the URL host is mapped at run time: it cannot be checked against the approved domains',
          severity: 'low',
          evidence: { pointer: url.pointer, value: url.value.slice(0, 120) },
        });
        continue;
      }
      const host = urlHost(url.value) ?? urlHost(`https://${url.value.trim()}`);
      if (host === null) continue;
      const bare = host.replace(/\.$/, '');
      if (domainAllowed(bare, allowed)) continue;
      literal++;
      findings.push({
        moduleId: m.id,
        reason: `calls \`${bare}\`, which is not an approved domain`,
        evidence: { pointer: url.pointer, value: bare },
      });
    }
    if (findings.length === 0) return null;
    return {
      status: literal > 0 ? 'fail' : 'warn',
      findings,
      summary:
        literal > 0
          ? `${literal} HTTP call${literal === 1 ? '' : 's'} to domains the organization has not approved`
          : `${findings.length} HTTP call${findings.length === 1 ? '' : 's'} to hosts chosen at run time, not checked against the approved domains`,
    };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) =>
          `In ${moduleRef(m)}, call an approved host, or have the destination assessed and added to \`allowed_http_domains\`.`,
      );
      if (outcome.findings.some((f) => f.evidence?.value?.includes('{{')))
        steps.push(
          'Where the host is mapped, fix it in the URL (`https://api.example.com/{{1.path}}`) so that only the path varies.',
        );
      return steps;
    },
  },
};
