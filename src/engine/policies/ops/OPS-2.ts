/** @module engine/policies/ops/OPS-2: sleeping inside a run. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';

/** OPS-2: `util:FunctionSleep` holds the execution (up to 300 s each) to wait for something. */
export const OPS_2: Policy = {
  code: 'OPS-2',
  title: 'Sleep used to wait inside a run',
  category: 'OPS',
  severity: 'low',
  description:
    "The scenario pauses with **Sleep** modules, holding an execution slot while it waits; several sleeps push runs toward Make's execution time limit, and waiting for another system this way is a race.",
  rationale:
    'Busy waiting wastes capacity and hides timing assumptions (NIST SP 800-53 SC-6 resource availability; ISO/IEC 27001 A.8.6 capacity management).',
  compliance_frameworks: [ref(F.nist, 'SC-6'), ref(F.iso27001, 'A.8.6')],
  examples: {
    avoid: '`util:FunctionSleep` with `"duration": 60` before polling a job status.',
    prefer: 'A webhook callback from the other system, or a **Break** handler with a retry interval.',
  },
  evaluate(analysis) {
    const findings: Finding[] = analysis.graph.modules
      .filter((m) => classify(m).flow === 'sleep')
      .map((m) => ({
        moduleId: m.id,
        reason: `sleeps${typeof m.mapper?.['duration'] === 'string' || typeof m.mapper?.['duration'] === 'number' ? ` ${String(m.mapper['duration'])} s` : ''} inside the run`,
        evidence: { pointer: m.pointer },
      }));
    return findings.length === 0
      ? null
      : { status: 'warn', findings, summary: `${findings.length} sleep module${findings.length === 1 ? '' : 's'}` };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis)
        .slice(0, 5)
        .map(
          (m) =>
            `Replace ${moduleRef(m)} with an event: have the other system call a webhook when it is ready, or retry the dependent module with a **Break** handler interval.`,
        );
      steps.push('If a pause is unavoidable (provider rate limit), keep it short and document why in a canvas note.');
      return steps;
    },
  },
};
