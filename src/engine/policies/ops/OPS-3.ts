/** @module engine/policies/ops/OPS-3: the automatic deactivation threshold. */
import type { Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';

/** Highest sensible number of consecutive failed runs before Make deactivates the scenario. */
export const OPS_3_MAX_ERRORS = 10;

/** OPS-3: `maxErrors` too high (or 0), so a broken scenario keeps running and failing. */
export const OPS_3: Policy = {
  code: 'OPS-3',
  title: 'Failing scenario is not stopped',
  category: 'OPS',
  severity: 'low',
  description: `The scenario setting **Number of consecutive errors** is 0 or above ${OPS_3_MAX_ERRORS}, so a broken scenario keeps running (and consuming operations and rate limits) long after it started failing.`,
  rationale:
    'Automatic deactivation is a circuit breaker; set it so a persistent fault stops the scenario and gets attention (SOC 2 CC7.2; NIST SP 800-53 SI-4).',
  compliance_frameworks: [ref(F.soc2, 'CC7.2'), ref(F.nist, 'SI-4')],
  examples: { avoid: '`"maxErrors": 50`', prefer: '`"maxErrors": 3` (Make\'s default)' },
  evaluate(analysis) {
    const max = analysis.graph.settings.maxErrors;
    if (max === null || (max > 0 && max <= OPS_3_MAX_ERRORS)) return null;
    return {
      status: 'warn',
      findings: [],
      summary: `maxErrors is ${max}`,
      evidence: { pointer: '/metadata/scenario/maxErrors', value: String(max) },
    };
  },
  remediation: {
    effort: 'low',
    steps() {
      return [
        `Open **Scenario settings** and set **Number of consecutive errors** to 3 (at most ${OPS_3_MAX_ERRORS}).`,
        'Pair it with a failure notification (OPS-1) so a deactivation is noticed.',
      ];
    },
  },
};
