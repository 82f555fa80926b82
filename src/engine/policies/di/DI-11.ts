/** @module engine/policies/di/DI-11: Resume handlers that substitute nothing. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { moduleRef } from '../helpers.js';
import { failedModuleOf, outputRead } from './shared.js';

/**
 * DI-11: a Resume directive with an empty substitute output, on a module whose output a later
 * module reads (its own error route reading the error does not count). When nothing reads the
 * output, Resume only lets the run go on (make `6302mohamed-scenario-1-lead-intake-and-ai-draft-sanitized`
 * 24: a Slack notification).
 */
export const DI_11: Policy = {
  code: 'DI-11',
  title: 'Resume handler without substitute output',
  category: 'DI',
  severity: 'medium',
  description:
    "An error route ends in **Resume** without mapping a substitute output, so the scenario continues as if the failed module had returned empty values. Not reported when no later module reads the failed module's output.",
  rationale:
    'Resume is meant to supply a safe fallback value; an empty one lets later modules write blanks over good data (SOC 2 PI1.3; NIST SP 800-53 SI-11).',
  compliance_frameworks: [ref(F.soc2, 'PI1.3'), ref(F.nist, 'SI-11')],
  examples: {
    avoid: '`{ "module": "builtin:Resume", "mapper": {} }`',
    prefer: '`{ "module": "builtin:Resume", "mapper": { "status": "fallback", "value": "0" } }` or Break.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      const failed = classify(m).directive === 'resume' ? failedModuleOf(analysis.graph.byId, m) : null;
      if (!failed) continue;
      const values = Object.values(m.mapper ?? {}).filter(
        (v) => v !== '' && v !== null && !(typeof v === 'object' && Object.keys(v).length === 0),
      );
      if (values.length > 0) continue;
      // Resume substitutes the failed module's output; when no later module reads that output there is nothing to substitute.
      if (!outputRead(analysis, failed)) continue;
      findings.push({
        moduleId: failed.id,
        reason: `its Resume handler (module ${m.id}) maps no substitute output`,
        evidence: { pointer: `${m.pointer}/mapper` },
      });
    }
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `${findings.length} Resume handler${findings.length === 1 ? '' : 's'} without a substitute output`,
        };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      return outcome.findings.map(
        (f) =>
          `In the error route of ${moduleRef(analysis.module(f.moduleId))}, open the **Resume** directive and map a safe substitute for every output field used later, or replace it with **Break**.`,
      );
    },
  },
};
