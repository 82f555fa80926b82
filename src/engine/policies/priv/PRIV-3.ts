/** @module engine/policies/priv/PRIV-3: personal data in a scenario whose execution data is kept. */
import type { Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { PII_KIND_LABELS } from '../../pii.js';
import { externalPiiSinks, piiPath } from './shared.js';

/** PRIV-3: personal data flows through the scenario and `confidential` is off, so Make keeps it in execution logs. */
export const PRIV_3: Policy = {
  code: 'PRIV-3',
  title: 'Personal data kept in execution logs',
  category: 'PRIV',
  severity: 'medium',
  description:
    "The scenario processes personal data and is not marked **confidential**, so the full input and output of every module, personal data included, is stored in Make's execution history and visible to everyone with access to the scenario.",
  rationale:
    'Execution history is a second, long-lived copy of the data, outside its system of record: storage limitation (GDPR Art. 5(1)(e)), data protection by default (Art. 25), retention (SOC 2 P4.2).',
  compliance_frameworks: [
    ref(F.gdpr, 'Art. 5(1)(e)'),
    ref(F.gdpr, 'Art. 25'),
    ref(F.soc2, 'P4.2'),
    ref(F.soc2, 'C1.1'),
    ref(F.iso27001, 'A.8.11'),
  ],
  examples: {
    avoid: '`"confidential": false` in a scenario mapping `{{1.email}}`.',
    prefer: '`"confidential": true` (Scenario settings → *Data is confidential*).',
  },
  evaluate(analysis) {
    if (analysis.graph.settings.confidential === true) return null;
    const sinks = externalPiiSinks(analysis);
    if (sinks.length === 0) return null;
    return {
      status: 'fail',
      findings: sinks.slice(0, 25).map((s) => ({
        moduleId: s.module.id,
        reason: `handles ${[...new Set(s.flows.map((f) => PII_KIND_LABELS[f.kind]))].join(', ')} that is kept in execution logs`,
        evidence: { pointer: s.flows[0]!.pointer },
        path: piiPath(analysis, s.flows[0]!, s.module, 'handles it; the execution log keeps it'),
      })),
      summary: `Personal data flows through ${sinks.length} module${sinks.length === 1 ? '' : 's'} of a scenario not marked confidential`,
      evidence: { pointer: '/metadata/scenario/confidential', value: String(analysis.graph.settings.confidential) },
    };
  },
  remediation: {
    effort: 'low',
    steps() {
      return [
        'Open **Scenario settings** and enable **Data is confidential**, so execution data is not stored.',
        'Delete existing execution history that contains personal data, if your retention policy requires it.',
        'If you need logs for debugging, log only ids, never the personal fields.',
      ];
    },
  },
};
