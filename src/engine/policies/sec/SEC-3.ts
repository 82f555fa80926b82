/** @module engine/policies/sec/SEC-3: plain-HTTP endpoints. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify, httpMethod, urlHost } from '../../blueprint/classify.js';
import { NAMESPACE_HOSTS } from '../../hosts/xml-namespaces.js';
import { fieldPath, findingModules, moduleRef } from '../helpers.js';
import { redact, scanForSecrets } from '../../secrets/scan.js';

/** Keys whose value is an address the module connects to. */
const URL_KEYS = /^(?:url|uri|endpoint|baseurl|webhookurl|feedurl|host|server|link|address|callbackurl)$/i;

/** The mapped host of `http://{{1.link}}/x` (`{{1.link}}`), or null. */
function mappedHost(url: string): string | null {
  const close = url.startsWith('{{', 7) ? url.indexOf('}}', 9) : -1;
  return close < 0 ? null : url.slice(7, close + 2);
}

/**
 * SEC-3: a module calls or reads an endpoint over plain `http://`, literal or built from mapped input
 * (`http://{{1.link}}`). Only mapper and parameter values count: `http://` as a filter operand (a
 * starts-with check) or inside an expression (`replace(x; "http://"; "")`) is not an address.
 */
export const SEC_3: Policy = {
  code: 'SEC-3',
  title: 'Plain-HTTP endpoint',
  category: 'SEC',
  severity: 'high',
  description:
    'A module connects to an `http://` address, so its request and response travel unencrypted and can be read or altered in transit.',
  rationale:
    'Data in transit must be encrypted with TLS: GDPR Art. 32 (security of processing), HIPAA §164.312(e)(1), PCI DSS v4.0 4.2.1 and NIST SP 800-53 SC-8 require transmission confidentiality and integrity.',
  compliance_frameworks: [
    ref(F.soc2, 'CC6.7'),
    ref(F.iso27001, 'A.8.24'),
    ref(F.nist, 'SC-8'),
    ref(F.hipaa, '§164.312(e)(1)'),
    ref(F.pci, '4.2.1'),
    ref(F.gdpr, 'Art. 32'),
  ],
  examples: { avoid: '`"url": "http://api.example.com/orders"`', prefer: '`"url": "https://api.example.com/orders"`' },
  evaluate(analysis) {
    const findings: Finding[] = [];
    const seen = new Set<string>();
    for (const leaf of analysis.strings()) {
      const v = leaf.value.trimStart();
      if (v.slice(0, 7).toLowerCase() !== 'http://') continue;
      const isAddressField = leaf.fieldName !== null && URL_KEYS.test(leaf.fieldName);
      if (!isAddressField && leaf.module.app !== 'http') continue;
      // `http://{{1.link}}`: the host is mapped at run time, but the scheme is literal: still no TLS.
      const host = urlHost(v) ?? mappedHost(v);
      if (host === null || NAMESPACE_HOSTS.test(host) || seen.has(leaf.pointer)) continue;
      seen.add(leaf.pointer);
      const m = leaf.module;
      const sendsData =
        classify(m).http &&
        (httpMethod(m) !== 'GET' ||
          (Array.isArray(m.mapper?.['headers']) && (m.mapper?.['headers'] as unknown[]).length > 0));
      findings.push({
        moduleId: m.id,
        reason: `\`${fieldPath(m, leaf.pointer)}\` connects to \`http://${host}\` without TLS${sendsData ? ' and sends data or headers over it' : ''}`,
        severity: sendsData ? 'high' : 'medium',
        evidence: { pointer: leaf.pointer, value: redact(v, scanForSecrets(v, leaf.fieldName)) },
      });
    }
    if (findings.length === 0) return null;
    return {
      status: 'fail',
      findings,
      summary: `${findings.length} plain-HTTP endpoint${findings.length === 1 ? '' : 's'}`,
    };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) =>
          `In ${moduleRef(m)}, change the address to \`https://\` and run the module once to confirm the endpoint serves TLS.`,
      );
      steps.push(
        'If the provider offers no HTTPS endpoint, replace the provider or route the call through a TLS-terminating gateway you control; *never* send credentials or personal data over plain HTTP.',
      );
      return steps;
    },
  },
};
