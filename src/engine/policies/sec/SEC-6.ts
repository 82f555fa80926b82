/** @module engine/policies/sec/SEC-6: server-side request forgery through a caller-controlled URL. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify, moduleUrl } from '../../blueprint/classify.js';
import { extractRefs } from '../../blueprint/expressions.js';
import { findingModules, moduleRef } from '../helpers.js';

/** The scheme-and-host part of a URL template (everything before the first `/` after `://`, or all of it). */
function authorityPart(url: string): string {
  const sep = url.indexOf('://');
  if (sep < 0) return url.split('/')[0] ?? url;
  const slash = url.indexOf('/', sep + 3);
  return slash < 0 ? url : url.slice(0, slash);
}

/** SEC-6: the address an HTTP module calls is taken from webhook data. */
export const SEC_6: Policy = {
  code: 'SEC-6',
  title: 'Request URL controlled by webhook input',
  category: 'SEC',
  severity: 'high',
  description: 'An HTTP module builds the host (or the whole URL) of its request from webhook data, so a caller can make the scenario call any address, including internal services, with the scenario\'s credentials.',
  rationale: 'Server-side request forgery (CWE-918, OWASP API7:2023). Outbound addresses must come from configuration, not from untrusted input (NIST SP 800-53 SC-7 boundary protection, SI-10 input validation).',
  compliance_frameworks: [ref(F.soc2, 'CC6.6'), ref(F.nist, 'SC-7'), ref(F.nist, 'SI-10'), ref(F.iso27001, 'A.8.20'), ref(F.pci, '6.2.4')],
  examples: { avoid: '`"url": "{{1.callback_url}}"` after a custom webhook.', prefer: 'A fixed host with only a validated path or query parameter from the payload, or a router that maps allowed values to fixed URLs.' },
  evaluate(analysis) {
    const df = analysis.dataflow();
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      if (!classify(m).http) continue;
      const url = moduleUrl(m);
      if (!url) continue;
      // Only input an outside party sends in (webhook, e-mail, chat, form, ticket): a link read from a feed or a page the scenario chose is its purpose, not a forgery.
      const hostRefs = extractRefs(authorityPart(url)).filter((r) => df.untrustedSourceOf(r.moduleId)?.inbound === true);
      if (hostRefs.length === 0) continue;
      findings.push({ moduleId: m.id, reason: `the request host comes from ${df.untrustedSourceOf(hostRefs[0]!.moduleId)!.label} (\`{{${hostRefs[0]!.moduleId}.${hostRefs[0]!.path}}}\`)`, evidence: { pointer: `${m.pointer}/mapper/url` } });
    }
    return findings.length === 0 ? null : { status: 'fail', findings, summary: `${findings.length} request${findings.length === 1 ? '' : 's'} to a caller-controlled address` };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map((m) => `In ${moduleRef(m)}, make the scheme and host of the URL a fixed value; take at most a path segment or query value from the payload.`);
      steps.push('Where several destinations are legitimate, map an allowed *name* from the payload to a fixed URL with a router and a fallback route that rejects the rest.');
      return steps;
    },
  },
};
