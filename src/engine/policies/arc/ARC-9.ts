/** @module engine/policies/arc/ARC-9: scenarios keeping Make's default name. */
import type { Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';

/** Names Make gives new scenarios ("Integration Webhooks, Google Sheets", "New scenario"). */
const DEFAULT_NAME = /^(?:integration\s+\S|new scenario|untitled|my scenario|scenario\s*\d*$|empty integration$)/i;

/** ARC-9: the scenario keeps a generated name, so fleets cannot be inventoried or owned. */
export const ARC_9: Policy = {
  code: 'ARC-9',
  title: 'Default scenario name',
  category: 'ARC',
  severity: 'info',
  description:
    'The scenario keeps the name Make generated ("Integration Webhooks, Google Sheets"), which says which apps it uses but not what business process it runs or who owns it.',
  rationale:
    'An inventory of automated processing needs meaningful names (GDPR Art. 30 records of processing activities; ISO/IEC 27001 A.8.9 configuration management).',
  compliance_frameworks: [ref(F.gdpr, 'Art. 30'), ref(F.iso27001, 'A.8.9')],
  examples: {
    avoid: '`"name": "Integration Webhooks, Google Sheets"`',
    prefer: '`"name": "Orders: webhook intake to fulfilment sheet (owner: ops)"`',
  },
  evaluate(analysis) {
    const name = analysis.graph.name;
    if (!DEFAULT_NAME.test(name.trim()) && name !== 'Untitled scenario') return null;
    return {
      status: 'warn',
      findings: [],
      summary: `The scenario keeps a generated name: "${name}"`,
      evidence: { pointer: '/name', value: name },
    };
  },
  remediation: {
    effort: 'low',
    steps() {
      return [
        'Rename the scenario after the business process it runs and its owner (click the name in the scenario editor).',
        'Use a consistent prefix per team or domain so the fleet can be filtered.',
      ];
    },
  },
};
