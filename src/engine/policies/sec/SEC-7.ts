/** @module engine/policies/sec/SEC-7: code execution fed with untrusted input. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';

/** SEC-7: a code module runs with webhook data as its input. */
export const SEC_7: Policy = {
  code: 'SEC-7',
  title: 'Code module runs on untrusted input',
  category: 'SEC',
  severity: 'high',
  description:
    "A custom-code module (JavaScript, cloud function, code app) receives webhook data directly, so a caller controls the input of code that runs with the scenario's access.",
  rationale:
    'Custom code is the one place where injected input can change behaviour (CWE-94 code injection, CWE-20 improper input validation). Validate and narrow inputs before they reach code (NIST SP 800-53 SI-10; PCI DSS v4.0 6.2.4).',
  compliance_frameworks: [ref(F.nist, 'SI-10'), ref(F.pci, '6.2.4'), ref(F.iso27001, 'A.8.28'), ref(F.soc2, 'CC6.6')],
  examples: {
    avoid: 'A code module whose `code` input is `{{1.script}}` from a webhook.',
    prefer: 'Validate the payload against a data structure and pass only typed, expected fields to the code.',
  },
  evaluate(analysis) {
    const df = analysis.dataflow();
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      if (!classify(m).code) continue;
      const refs = df.untrustedInputs(m.id);
      if (refs.length === 0) continue;
      const source = df.untrustedSourceOf(refs[0]!.moduleId)!;
      findings.push({
        moduleId: m.id,
        reason: `runs custom code on ${source.label} (${refs
          .slice(0, 3)
          .map((r) => `\`${r.moduleId}.${r.path}\``)
          .join(', ')})`,
        evidence: { pointer: refs[0]!.pointer },
      });
    }
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `${findings.length} code module${findings.length === 1 ? '' : 's'} fed with webhook data`,
        };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      return [
        'Define a **data structure** on the webhook so only expected, typed fields are accepted.',
        ...findingModules(outcome, analysis).map(
          (m) =>
            `Pass ${moduleRef(m)} only the specific fields it needs, validated by a filter (type, length, allowed values); never evaluate payload text as code.`,
        ),
      ];
    },
  },
};
