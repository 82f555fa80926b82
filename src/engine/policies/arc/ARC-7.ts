/** @module engine/policies/arc/ARC-7: disabled router routes. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { findingModules, moduleRef } from '../helpers.js';

/** ARC-7: routes switched off but left in the scenario. */
export const ARC_7: Policy = {
  code: 'ARC-7',
  title: 'Disabled routes left in the scenario',
  category: 'ARC',
  severity: 'info',
  description:
    'A router has routes that are disabled: dead branches that still look like behaviour to a reviewer and may be re-enabled by accident.',
  rationale: 'Dead code misleads reviews and hides untested behaviour (ISO/IEC 27001 A.8.25; SOC 2 CC8.1).',
  compliance_frameworks: [ref(F.iso27001, 'A.8.25'), ref(F.soc2, 'CC8.1')],
  examples: {
    avoid: '`"routes": [{ "flow": [...], "disabled": true }]`',
    prefer: 'Delete the route, or keep it in a separate draft scenario.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      m.routes.forEach((r, i) => {
        if (r.disabled)
          findings.push({
            moduleId: m.id,
            reason: `route ${i + 1} of ${m.routes.length} is disabled (${r.moduleIds.length} modules)`,
            evidence: { pointer: `${m.pointer}/routes/${i}/disabled`, value: 'true' },
          });
      });
    }
    return findings.length === 0
      ? null
      : { status: 'warn', findings, summary: `${findings.length} disabled route${findings.length === 1 ? '' : 's'}` };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      return findingModules(outcome, analysis).map(
        (m) => `Delete the disabled routes of ${moduleRef(m)} or move them to a draft copy of the scenario.`,
      );
    },
  },
};
