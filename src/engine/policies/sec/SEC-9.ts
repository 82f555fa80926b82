/** @module engine/policies/sec/SEC-9: cookies shared between HTTP requests. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { findingModules, moduleRef } from '../helpers.js';

/** SEC-9: `shareCookies` keeps session cookies across modules and runs. */
export const SEC_9: Policy = {
  code: 'SEC-9',
  title: 'Cookies shared across HTTP requests',
  category: 'SEC',
  severity: 'low',
  description:
    'An HTTP module shares cookies with other HTTP modules, so a session cookie set by one endpoint is sent to others and kept beyond the request that needed it.',
  rationale:
    'Shared cookie jars carry sessions across requests and hosts where they were not meant to go (CWE-565, CWE-539). Keep session state explicit (NIST SP 800-53 SC-23 session authenticity).',
  compliance_frameworks: [ref(F.nist, 'SC-23'), ref(F.iso27001, 'A.8.26')],
  examples: {
    avoid: '`"shareCookies": true`',
    prefer: '`"shareCookies": false`, passing a session token explicitly where one is needed.',
  },
  evaluate(analysis) {
    const findings: Finding[] = analysis.graph.modules
      .filter((m) => m.app === 'http' && m.mapper?.['shareCookies'] === true)
      .map((m) => ({
        moduleId: m.id,
        reason: 'shares its cookie jar with other HTTP modules',
        evidence: { pointer: `${m.pointer}/mapper/shareCookies`, value: 'true' },
      }));
    return findings.length === 0
      ? null
      : {
          status: 'warn',
          findings,
          summary: `${findings.length} HTTP module${findings.length === 1 ? '' : 's'} sharing cookies`,
        };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      return findingModules(outcome, analysis).map(
        (m) =>
          `In ${moduleRef(m)}, set **Share cookies with other HTTP modules** to *No* unless a login flow needs it, and then limit it to that flow.`,
      );
    },
  },
};
