/** @module engine/policies/sec/SEC-8: credentials forwarded across redirects. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { isCredentialName } from '../../secrets/patterns.js';
import { findingModules, moduleRef } from '../helpers.js';

/** SEC-8: an authenticated request follows every redirect, to any host. */
export const SEC_8: Policy = {
  code: 'SEC-8',
  title: 'Credentials forwarded on redirects',
  category: 'SEC',
  severity: 'medium',
  description:
    'An HTTP module sends credentials (an Authorization or API-key header, or basic auth) and follows all redirects, including non-GET ones and those to other hosts, which forwards the credentials to wherever the server points.',
  rationale:
    'A compromised or misconfigured endpoint can redirect an authenticated request to a host it controls and collect the credentials (CWE-601 open redirect, CWE-522). Follow redirects only where needed and never across hosts with credentials (NIST SP 800-53 SC-8; SOC 2 CC6.7).',
  compliance_frameworks: [ref(F.soc2, 'CC6.7'), ref(F.nist, 'SC-8'), ref(F.iso27001, 'A.5.17')],
  examples: {
    avoid: '`"followAllRedirects": true` with an `Authorization` header.',
    prefer: '`"followRedirect": false, "followAllRedirects": false` for authenticated calls.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      if (m.app !== 'http' || !m.mapper) continue;
      if (m.mapper['followAllRedirects'] !== true) continue;
      const headers = Array.isArray(m.mapper['headers']) ? m.mapper['headers'] : [];
      const sendsCredential =
        headers.some(
          (h) =>
            h !== null &&
            typeof h === 'object' &&
            !Array.isArray(h) &&
            typeof h['name'] === 'string' &&
            isCredentialName(h['name']),
        ) ||
        (typeof m.mapper['authPass'] === 'string' && m.mapper['authPass'] !== '') ||
        (m.app === 'http' && m.parameters?.['auth'] !== undefined);
      if (!sendsCredential) continue;
      findings.push({
        moduleId: m.id,
        reason: 'follows all redirects while sending credentials',
        evidence: { pointer: `${m.pointer}/mapper/followAllRedirects`, value: 'true' },
      });
    }
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `${findings.length} authenticated request${findings.length === 1 ? '' : 's'} following all redirects`,
        };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      return findingModules(outcome, analysis).map(
        (m) =>
          `In ${moduleRef(m)}, turn off **Follow all redirects** (and **Follow redirect** unless the endpoint needs it); call the final URL directly.`,
      );
    },
  },
};
