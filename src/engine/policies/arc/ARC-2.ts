/** @module engine/policies/arc/ARC-2: deeply nested routers. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';

/** Deepest router nesting accepted: a router inside a route of a router inside a route of a router. */
export const ARC_2_MAX_DEPTH = 3;

/** ARC-2: routers nested deeper than ARC_2_MAX_DEPTH levels. */
export const ARC_2: Policy = {
  code: 'ARC-2',
  title: 'Deeply nested routers',
  category: 'ARC',
  severity: 'low',
  description: `Routers are nested more than ${ARC_2_MAX_DEPTH} levels deep, which hides the conditions under which a module runs and makes the scenario hard to test.`,
  rationale:
    'Each router level multiplies the paths to test; deep nesting is where filters contradict each other unnoticed (NIST SP 800-53 SA-8; ISO/IEC 27001 A.8.25).',
  compliance_frameworks: [ref(F.nist, 'SA-8'), ref(F.iso27001, 'A.8.25')],
  examples: {
    avoid: '`flow[1].routes[3].flow[7].routes[0].flow[1].routes[1].flow[0].routes[0]...`',
    prefer: 'Flatten: one router with mutually exclusive filters, or sub-scenarios per branch.',
  },
  evaluate(analysis) {
    const findings: Finding[] = analysis.graph.modules
      .filter((m) => classify(m).flow === 'router' && m.depth >= ARC_2_MAX_DEPTH)
      .map((m) => ({
        moduleId: m.id,
        reason: `router at nesting level ${m.depth + 1} (limit ${ARC_2_MAX_DEPTH})`,
        evidence: { pointer: m.pointer },
      }));
    return findings.length === 0
      ? null
      : { status: 'warn', findings, summary: `Routers nested ${analysis.graph.maxDepth + 1} levels deep` };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis)
        .slice(0, 5)
        .map(
          (m) =>
            `Merge ${moduleRef(m)} into its parent router by combining the filters of both levels into one route each.`,
        );
      steps.push('Where branches are independent processes, move them into sub-scenarios.');
      return steps;
    },
  },
};
