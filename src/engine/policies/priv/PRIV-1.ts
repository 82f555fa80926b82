/** @module engine/policies/priv/PRIV-1: personal data sent to AI / LLM modules. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';
import { riskRow } from '../../risk/model.js';
import { sensitivityOf } from '../../risk/sensitivity.js';
import { describeFlows, personalDataSinks, piiPath } from './shared.js';

/** PRIV-1: e-mail addresses, phone numbers, names, ids or health data reach a prompt. */
export const PRIV_1: Policy = {
  code: 'PRIV-1',
  title: 'Personal data sent to an AI model',
  category: 'PRIV',
  severity: 'high',
  description:
    "Personal data from an earlier module is mapped into the input of an AI / LLM module, which sends it to the model provider: data that identifies a person by what it is (an e-mail address, phone, a contact's name, identifiers, the text of an e-mail or ticket, or free text sent with one of these), also through variables, iterators, aggregators, data store records, document conversions, file uploads and earlier AI summaries. Critical for special-category data (health, identity documents, tax data, CVs, card or bank numbers; risk-model row R15), high otherwise (R16). Free text that identifies no one (a topic typed into a content bot, a company name) is not charged with the name or e-mail that travel in the same row.",
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
    const findings: Finding[] = personalDataSinks(analysis)
      .filter((s) => classify(s.module).ai)
      .map((s) => {
        const sensitivity = sensitivityOf(s.flows.map((f) => f.kind));
        const risk = riskRow(sensitivity === 'special-category' ? 'R15' : 'R16', { sensitivity, impact: 'send' });
        return {
          moduleId: s.module.id,
          reason: `receives personal data: ${describeFlows(s.flows)}`,
          severity: risk.severity,
          evidence: { pointer: s.flows[0]!.pointer },
          risk,
          path: piiPath(analysis, s.flows[0]!, s.module, 'sends it to the model provider'),
        };
      });
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
