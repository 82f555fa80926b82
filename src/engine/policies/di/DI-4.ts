/** @module engine/policies/di/DI-4: data loss explicitly allowed. */
import type { Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';

/** DI-4: `dataloss: true` drops runs that cannot be stored. */
export const DI_4: Policy = {
  code: 'DI-4',
  title: 'Data loss allowed',
  category: 'DI',
  severity: 'high',
  description:
    'The scenario setting **Enable data loss** is on: when an incomplete execution cannot be stored, its data is discarded instead of stopping the scenario.',
  rationale:
    'Accepting silent loss of bundles breaks the completeness of processing (SOC 2 PI1.3) and the ability to restore data after an incident (GDPR Art. 32(1)(c); NIST SP 800-53 CP-10).',
  compliance_frameworks: [ref(F.soc2, 'PI1.3'), ref(F.soc2, 'A1.2'), ref(F.nist, 'CP-10'), ref(F.gdpr, 'Art. 32')],
  examples: { avoid: '`"dataloss": true`', prefer: '`"dataloss": false` with `"dlq": true`' },
  evaluate(analysis) {
    if (analysis.graph.settings.dataloss !== true) return null;
    return {
      status: 'fail',
      findings: [],
      summary: 'Enable data loss is on: bundles may be discarded',
      evidence: { pointer: '/metadata/scenario/dataloss', value: 'true' },
    };
  },
  remediation: {
    effort: 'low',
    steps() {
      return [
        'Open **Scenario settings** and turn **Enable data loss** *off*.',
        'Turn **Allow storing of incomplete executions** *on* so failed runs are kept for retry.',
        'If storage limits were the reason, reduce bundle size (drop unneeded fields) rather than discarding data.',
      ];
    },
  },
};
