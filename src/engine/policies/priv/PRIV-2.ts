/** @module engine/policies/priv/PRIV-2: personal data sent to generic HTTP endpoints. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify, moduleUrl, urlHost } from '../../blueprint/classify.js';
import { MAKE_HOOK_HOST } from '../../hosts/make-hosts.js';
import { findingModules, moduleRef } from '../helpers.js';
import { wholePlaceholder } from '../../placeholders.js';
import { describeFlows, externalPiiSinks, ownServiceOf, piiPath, type OwnServiceKind } from './shared.js';

/** How a reason names the operator's own account at a well-known service. */
const OWN: Readonly<Record<OwnServiceKind, string>> = {
  database: "the operator's own database",
  records: "the operator's own records",
  messaging: "the operator's own messaging account",
};

/** PRIV-2: personal data leaves through a raw HTTP call, outside any app connection's agreement. */
export const PRIV_2: Policy = {
  code: 'PRIV-2',
  title: 'Personal data sent to a generic HTTP endpoint',
  category: 'PRIV',
  severity: 'medium',
  description:
    "Personal data is mapped into a generic HTTP request, where neither the recipient nor its safeguards are visible from the scenario: an undocumented disclosure to a third party. A call to the operator's own account at a well-known service (a hosted database such as Firebase or Supabase, a CRM or record store, a messaging API sending to the person) names its recipient and is low.",
  rationale:
    'Every recipient of personal data must be known and bound by an agreement (GDPR Art. 28 and Art. 30; SOC 2 P6.1 disclosure to third parties) and the transfer protected (Art. 32).',
  compliance_frameworks: [
    ref(F.gdpr, 'Art. 28'),
    ref(F.gdpr, 'Art. 32'),
    ref(F.soc2, 'P6.1'),
    ref(F.iso27001, 'A.5.34'),
  ],
  examples: {
    avoid: '`http:ActionSendData` posting `{"email": "{{1.email}}"}` to an unlisted host.',
    prefer: "The vendor's Make app with a reviewed connection, or a documented endpoint on your processor list.",
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const s of externalPiiSinks(analysis)) {
      if (!classify(s.module).http || classify(s.module).ai) continue;
      const url = moduleUrl(s.module);
      const host = url ? urlHost(url) : null;
      // Make's own webhooks hand the data to another scenario on the same platform, whose modules are
      // checked where it sends the data on: not a disclosure to a new recipient.
      if (host !== null && MAKE_HOOK_HOST.test(host)) continue;
      // A well-known service reached with the operator's account: the recipient is known, only its listing as a processor is left (low).
      const service = ownServiceOf(s.module);
      if (service !== null)
        findings.push({
          moduleId: s.module.id,
          severity: 'low',
          reason: `sends personal data (${describeFlows(s.flows)}) to ${OWN[service.kind]} at \`${host}\` (${service.name})`,
          evidence: { pointer: s.flows[0]!.pointer },
          path: piiPath(analysis, s.flows[0]!, s.module, `sends it to \`${host}\` (${service.name})`),
        });
      // A template's placeholder address (`YOUR_SLACK_WEBHOOK_URL`) sends nowhere as exported: the operator chooses the recipient when configuring it (ARC-10 reports the slot).
      else if (url !== null && host === null && wholePlaceholder(url.trim()) !== null)
        findings.push({
          moduleId: s.module.id,
          severity: 'low',
          reason: `sends personal data (${describeFlows(s.flows)}) to an address left as a placeholder (\`${url.trim().slice(0, 60)}\`): the recipient is chosen when the template is configured`,
          evidence: { pointer: s.flows[0]!.pointer },
          path: piiPath(analysis, s.flows[0]!, s.module, 'sends it to an address left as a placeholder'),
        });
      else
        findings.push({
          moduleId: s.module.id,
          reason: `sends personal data (${describeFlows(s.flows)}) to ${host ? `\`${host}\`` : 'a mapped address'}`,
          evidence: { pointer: s.flows[0]!.pointer },
          path: piiPath(analysis, s.flows[0]!, s.module, `sends it to ${host ? `\`${host}\`` : 'a mapped address'}`),
        });
    }
    return findings.length === 0
      ? null
      : {
          status: 'warn',
          findings,
          summary: `Personal data sent over ${findings.length} generic HTTP request${findings.length === 1 ? '' : 's'}`,
        };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) =>
          `For ${moduleRef(m)}, confirm the recipient is an approved processor, send only the fields it needs, and prefer its Make app if one exists.`,
      );
      steps.push('List the endpoint in your records of processing activities with the data categories it receives.');
      return steps;
    },
  },
};
