/** @module engine/policies/arc/ARC-8: filters without conditions. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { findingModules, moduleRef } from '../helpers.js';

/** ARC-8: a named filter with no condition lets every bundle through. */
export const ARC_8: Policy = {
  code: 'ARC-8',
  title: 'Filter without conditions',
  category: 'ARC',
  severity: 'low',
  description: 'A module has a named filter with no conditions: it looks like a gate on the canvas but lets every bundle through.',
  rationale: 'Controls that look present but do nothing are worse than none (SOC 2 PI1.3 valid processing; ISO/IEC 27001 A.8.28).',
  compliance_frameworks: [ref(F.soc2, 'PI1.3'), ref(F.iso27001, 'A.8.28')],
  examples: { avoid: '`"filter": { "name": "Only paid orders", "conditions": [] }`', prefer: '`"filter": { "name": "Only paid orders", "conditions": [[{ "a": "{{1.status}}", "o": "text:equal", "b": "paid" }]] }`' },
  evaluate(analysis) {
    const findings: Finding[] = analysis.graph.modules
      .filter((m) => m.filter !== null && m.filter.conditions.every((g) => g.length === 0))
      .map((m) => ({ moduleId: m.id, reason: `filter "${m.filter!.name}" has no conditions and passes every bundle`, evidence: { pointer: `${m.pointer}/filter` } }));
    return findings.length === 0 ? null : { status: 'warn', findings, summary: `${findings.length} filter${findings.length === 1 ? '' : 's'} without conditions` };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      return findingModules(outcome, analysis).map((m) => `Open the filter before ${moduleRef(m)} and add the condition its name promises, or delete the filter.`);
    },
  },
};
