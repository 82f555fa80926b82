/** @module engine/policies/priv/PRIV-1: personal data sent to AI / LLM modules. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { SPECIAL_PII } from '../../pii.js';
import { findingModules, moduleRef } from '../helpers.js';
import { describeFlows, externalPiiSinks } from './shared.js';

/** PRIV-1: e-mail addresses, phone numbers, names, ids or health data reach a prompt. */
export const PRIV_1: Policy = {
  code: 'PRIV-1',
  title: 'Personal data sent to an AI model',
  category: 'PRIV',
  severity: 'high',
  description:
    "Personal data from an earlier module is mapped into the input of an AI / LLM module, which sends it to the model provider: fields named as personal data in a personal context (e-mail, phone, a contact's name, identifiers, health or payment data), or anything from a personal source (an e-mail, a form submission, a chat message, a CRM contact), also through variables, iterators, aggregators and earlier AI summaries.",
  rationale:
    'Prompts are processed, and often retained, by the provider: a processing by a processor (GDPR Art. 28) that must be necessary and minimal (Art. 5(1)(c)) and documented; high-risk AI data governance (EU AI Act Art. 10). Pseudonymise or drop identifiers before the call.',
  compliance_frameworks: [
    ref(F.gdpr, 'Art. 5(1)(c)'),
    ref(F.gdpr, 'Art. 28'),
    ref(F.aiAct, 'Art. 10'),
    ref(F.iso27001, 'A.5.34'),
    ref(F.soc2, 'P6.1'),
  ],
  examples: {
    avoid:
      '`"prompt": "Write to {{1.full_name}} at {{1.email}} about ..."`, or `"content": "Classify: {{1.text}}"` after a Gmail *Watch emails* trigger.',
    prefer: '`"prompt": "Write to the customer about {{1.topic}}"`, adding the name after the model call.',
  },
  evaluate(analysis) {
    const findings: Finding[] = externalPiiSinks(analysis)
      .filter((s) => classify(s.module).ai)
      .map((s) => ({
        moduleId: s.module.id,
        reason: `receives personal data: ${describeFlows(s.flows)}`,
        severity: s.flows.some((f) => SPECIAL_PII.has(f.kind)) ? ('critical' as const) : ('high' as const),
        evidence: { pointer: s.flows[0]!.pointer },
      }));
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `Personal data reaches ${findings.length} AI module${findings.length === 1 ? '' : 's'}`,
        };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) =>
          `In ${moduleRef(m)}, remove the personal fields from the prompt or replace them with placeholders (\`[CUSTOMER]\`) that you fill in after the model call.`,
      );
      steps.push(
        'Confirm a data processing agreement with the model provider and disable training on your data in its settings.',
      );
      steps.push(
        'Record this processing (purpose, provider, data categories) in your records of processing activities.',
      );
      return steps;
    },
  },
};
