/** @module engine/policies/arc/ARC-1: oversized scenarios. */
import type { Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';

/** Module count above which a scenario should be split (warn), and above which it fails. */
export const ARC_1_WARN_MODULES = 50;
export const ARC_1_FAIL_MODULES = 100;

/** ARC-1: too many modules in one scenario to review, test and change safely. */
export const ARC_1: Policy = {
  code: 'ARC-1',
  title: 'Oversized scenario',
  category: 'ARC',
  severity: 'medium',
  description: `The scenario has more than ${ARC_1_WARN_MODULES} modules; large scenarios are hard to review, test and change safely and consume more operations per run.`,
  rationale:
    'Complexity is the main source of configuration errors; split work into sub-scenarios (Make *Run a scenario* / scenario inputs) that can be reviewed and changed independently (SOC 2 CC8.1 change management; NIST SP 800-53 SA-8 engineering principles).',
  compliance_frameworks: [ref(F.soc2, 'CC8.1'), ref(F.nist, 'SA-8'), ref(F.iso27001, 'A.8.25')],
  examples: {
    avoid: 'One scenario with 195 modules and six levels of routers.',
    prefer: 'A dispatcher scenario that calls focused sub-scenarios with `scenario-service:StartSubscenario`.',
  },
  evaluate(analysis) {
    const n = analysis.graph.modules.length;
    if (n <= ARC_1_WARN_MODULES) return null;
    return {
      status: n > ARC_1_FAIL_MODULES ? 'fail' : 'warn',
      findings: [],
      severity: n > ARC_1_FAIL_MODULES ? 'medium' : 'low',
      summary: `The scenario has ${n} modules (limit ${ARC_1_WARN_MODULES})`,
      evidence: { pointer: '/flow', value: `${n} modules` },
    };
  },
  remediation: {
    effort: 'high',
    steps(_o, analysis) {
      return [
        `Map the ${analysis.graph.modules.length} modules into independent stages (intake, enrichment, output) along the router routes.`,
        'Move each stage into its own scenario with **scenario inputs** and call it with *Run a scenario* (`scenario-service:StartSubscenario`).',
        'Keep the trigger and the routing decision in the parent scenario, and give each child its own error handling.',
      ];
    },
  },
};
