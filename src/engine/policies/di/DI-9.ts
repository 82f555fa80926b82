/** @module engine/policies/di/DI-9: HTTP error statuses treated as success. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { findingModules, moduleRef } from '../helpers.js';

/** DI-9: `handleErrors: false` / `stopOnHttpError: false` turn 4xx/5xx answers into successful bundles. */
export const DI_9: Policy = {
  code: 'DI-9',
  title: 'HTTP errors treated as success',
  category: 'DI',
  severity: 'medium',
  description: 'An HTTP module is set not to treat 4xx/5xx responses as errors, so a failed call produces a normal bundle, error handlers never run, and later modules work on an error page.',
  rationale: 'Failures that look like successes corrupt downstream data silently (CWE-252 unchecked return value; NIST SP 800-53 SI-11 error handling; SOC 2 PI1.3).',
  compliance_frameworks: [ref(F.nist, 'SI-11'), ref(F.soc2, 'PI1.3')],
  examples: { avoid: '`"parameters": { "handleErrors": false }` or `"stopOnHttpError": false`', prefer: '`"handleErrors": true` (or `stopOnHttpError: true`) with an error handler.' },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      if (m.app !== 'http') continue;
      if (m.parameters?.['handleErrors'] === false) findings.push({ moduleId: m.id, reason: '`parameters.handleErrors` is false: 4xx/5xx responses are not errors', evidence: { pointer: `${m.pointer}/parameters/handleErrors`, value: 'false' } });
      else if (m.mapper?.['stopOnHttpError'] === false) findings.push({ moduleId: m.id, reason: '`mapper.stopOnHttpError` is false: 4xx/5xx responses are not errors', evidence: { pointer: `${m.pointer}/mapper/stopOnHttpError`, value: 'false' } });
    }
    return findings.length === 0 ? null : { status: 'fail', findings, summary: `${findings.length} HTTP module${findings.length === 1 ? '' : 's'} treating error statuses as success` };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map((m) => `In ${moduleRef(m)}, set **Evaluate all states as errors (except for 2xx and 3xx)** to *Yes*.`);
      steps.push('Add an error handler to these modules for the statuses you expect (for example retry 429 and 5xx with **Break**).');
      return steps;
    },
  },
};
