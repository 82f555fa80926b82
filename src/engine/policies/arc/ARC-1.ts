/** @module engine/policies/arc/ARC-1: oversized scenarios. */
import type { IntegerParameter, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { paramValue } from '../params.js';

/** Default module count above which a scenario should be split (warn, low); above twice as many it fails (medium). */
export const ARC_1_WARN_MODULES = 50;

/** `max_modules` (issue 17): the organization's limit; a scenario above it warns, above twice it fails. */
export const MAX_MODULES: IntegerParameter = {
  name: 'max_modules',
  type: 'integer',
  description:
    'Modules a scenario may hold before ARC-1 reports it: above this count it warns (low), above twice this count it fails (medium).',
  default: ARC_1_WARN_MODULES,
  minimum: 2,
  maximum: 1000,
};

/** ARC-1: too many modules in one scenario to review, test and change safely. */
export const ARC_1: Policy = {
  code: 'ARC-1',
  title: 'Oversized scenario',
  category: 'ARC',
  severity: 'medium',
  description: `The scenario has more than \`max_modules\` modules (${ARC_1_WARN_MODULES} unless the organization sets it); large scenarios are hard to review, test and change safely and consume more operations per run.`,
  rationale:
    'Complexity is the main source of configuration errors; split work into sub-scenarios (Make *Run a scenario* / scenario inputs) that can be reviewed and changed independently (SOC 2 CC8.1 change management; NIST SP 800-53 SA-8 engineering principles).',
  compliance_frameworks: [ref(F.soc2, 'CC8.1'), ref(F.nist, 'SA-8'), ref(F.iso27001, 'A.8.25')],
  examples: {
    avoid: 'One scenario with 195 modules and six levels of routers.',
    prefer: 'A dispatcher scenario that calls focused sub-scenarios with `scenario-service:StartSubscenario`.',
  },
  parameters: [MAX_MODULES],
  evaluate(analysis, params) {
    const limit = paramValue(params, MAX_MODULES);
    const n = analysis.graph.modules.length;
    if (n <= limit) return null;
    return {
      status: n > 2 * limit ? 'fail' : 'warn',
      findings: [],
      severity: n > 2 * limit ? 'medium' : 'low',
      summary: `The scenario has ${n} modules (limit ${limit})`,
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
