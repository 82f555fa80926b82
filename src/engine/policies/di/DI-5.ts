/** @module engine/policies/di/DI-5: routers that drop bundles matching no route. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';

/** DI-5: every route is filtered and no fallback (`else`) route is set. */
export const DI_5: Policy = {
  code: 'DI-5',
  title: 'Router without a fallback route',
  category: 'DI',
  severity: 'medium',
  description: 'Every route of a router has a filter and none is marked as the fallback route, so a bundle that matches no filter is silently dropped.',
  rationale: 'Unmatched bundles vanish without an error or a log entry; a fallback route makes the unexpected case visible (SOC 2 PI1.3 complete processing; ISO/IEC 27001 A.8.28 secure coding: handle every case).',
  compliance_frameworks: [ref(F.soc2, 'PI1.3'), ref(F.iso27001, 'A.8.28')],
  examples: { avoid: 'A `builtin:BasicRouter` whose two routes both start with a filter and `parameters: null`.', prefer: 'A third route marked **fallback route** (`parameters: { "else": 2 }`) that logs or alerts.' },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      if (classify(m).flow !== 'router' || m.routes.length === 0) continue;
      const elseRoute = m.parameters?.['else'];
      if (typeof elseRoute === 'number' && elseRoute >= 0 && elseRoute < m.routes.length) continue;
      const enabled = m.routes.filter((r) => !r.disabled);
      const unconditional = enabled.some((r) => {
        const head = r.moduleIds[0] !== undefined ? analysis.module(r.moduleIds[0]) : undefined;
        return !head || head.filter === null || head.filter.conditions.every((g) => g.length === 0);
      });
      if (unconditional) continue;
      findings.push({ moduleId: m.id, reason: `all ${enabled.length} routes are filtered and no fallback route is set: unmatched bundles are dropped`, evidence: { pointer: m.pointer } });
    }
    return findings.length === 0 ? null : { status: 'fail', findings, summary: `${findings.length} router${findings.length === 1 ? '' : 's'} without a fallback route` };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map((m) => `Add a route to ${moduleRef(m)}, open its filter settings and tick **Fallback route**; make it log or notify about the unmatched bundle.`);
      steps.push('Review the existing filters so that every expected case is matched by exactly one route.');
      return steps;
    },
  },
};
