/** @module engine/policies/di/DI-10: Break handlers that cannot store the failed run. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';

/** DI-10: a Break directive in a scenario with incomplete executions disabled. */
export const DI_10: Policy = {
  code: 'DI-10',
  title: 'Break handler without stored incomplete executions',
  category: 'DI',
  severity: 'medium',
  description:
    'An error route ends in **Break**, but the scenario does not allow storing incomplete executions, so the failed bundle cannot be kept for retry and the intended recovery never happens.',
  rationale:
    'Break relies on incomplete-executions storage to retry or resolve the failed run (Make documentation, "Break error handler"). Without it the handler gives a false sense of recovery (SOC 2 A1.2; NIST SP 800-53 CP-10).',
  compliance_frameworks: [ref(F.soc2, 'A1.2'), ref(F.nist, 'CP-10')],
  examples: { avoid: '`"onerror": [{ "module": "builtin:Break" }]` with `"dlq": false`.', prefer: '`"dlq": true`' },
  evaluate(analysis) {
    if (analysis.graph.settings.dlq === true) return null;
    const findings: Finding[] = analysis.graph.modules
      .filter((m) => classify(m).directive === 'break' && m.parentId !== null)
      .map((m) => ({
        moduleId: m.parentId!,
        reason: `its Break handler (module ${m.id}) cannot store the failed run: incomplete executions are disabled`,
        evidence: { pointer: m.pointer },
      }));
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `${findings.length} Break handler${findings.length === 1 ? '' : 's'} without incomplete-executions storage`,
          evidence: { pointer: '/metadata/scenario/dlq', value: String(analysis.graph.settings.dlq) },
        };
  },
  remediation: {
    effort: 'low',
    steps() {
      return [
        'Open **Scenario settings** and enable **Allow storing of incomplete executions**.',
        'Review **Incomplete executions** after the next failure to confirm bundles are kept and retried.',
      ];
    },
  },
};
