/** @module engine/policies/priv/PRIV-6: special-category, identity and payment data leaving the scenario. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { SPECIAL_PII } from '../../pii.js';
import { findingModules, moduleRef } from '../helpers.js';
import { describeFlows, externalPiiSinks } from './shared.js';

/** PRIV-6: health data, national ids, card numbers or bank accounts reach another system. */
export const PRIV_6: Policy = {
  code: 'PRIV-6',
  title: 'Sensitive personal data sent to another system',
  category: 'PRIV',
  severity: 'critical',
  description: 'Health data, national identifiers, payment-card or bank-account data is mapped into a module that sends it to another system.',
  rationale: 'Special categories (GDPR Art. 9) and identity or payment data need an explicit legal basis and strong protection; card numbers bring the scenario into PCI DSS scope (v4.0 3.5.1 unreadable when stored, 4.2.1 strong cryptography in transit); health data is ePHI under HIPAA §164.312(e)(1).',
  compliance_frameworks: [ref(F.gdpr, 'Art. 9'), ref(F.gdpr, 'Art. 32'), ref(F.pci, '3.5.1'), ref(F.pci, '4.2.1'), ref(F.hipaa, '§164.312(e)(1)'), ref(F.iso27001, 'A.5.34')],
  examples: { avoid: '`"values": { "0": "{{1.card_number}}" }` in a Google Sheets module.', prefer: 'A tokenised reference from the payment provider (`{{1.payment_method_id}}`), never the number itself.' },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const s of externalPiiSinks(analysis)) {
      const sensitive = s.flows.filter((f) => SPECIAL_PII.has(f.kind));
      if (sensitive.length > 0) findings.push({ moduleId: s.module.id, reason: `receives ${describeFlows(sensitive)}`, evidence: { pointer: sensitive[0]!.pointer } });
    }
    return findings.length === 0 ? null : { status: 'fail', findings, summary: `Sensitive personal data reaches ${findings.length} module${findings.length === 1 ? '' : 's'}` };
  },
  remediation: {
    effort: 'high',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map((m) => `Stop sending the sensitive fields to ${moduleRef(m)}; pass a token or an internal reference instead.`);
      steps.push('If the transfer is required, document its legal basis (GDPR Art. 9(2)), mark the scenario confidential and restrict who can open it.');
      return steps;
    },
  },
};
