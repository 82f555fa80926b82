/** @module engine/policies/arc/ARC-3: default module labels in larger scenarios. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';

/** Scenarios with more modules than this should label their modules. */
export const ARC_3_MIN_MODULES = 10;
/** Share of unlabeled modules (0..1) above which the policy warns. */
export const ARC_3_MAX_UNLABELED = 0.5;

/** ARC-3: most modules keep their default labels, so the canvas does not say what each step is for. */
export const ARC_3: Policy = {
  code: 'ARC-3',
  title: 'Default module labels',
  category: 'ARC',
  severity: 'info',
  description: `More than half of the modules of a scenario with over ${ARC_3_MIN_MODULES} modules keep their default labels ("HTTP · Make a request"), so reviewers and on-call engineers cannot tell the steps apart.`,
  rationale:
    'Readable, documented automations are reviewable automations; labels are the cheapest documentation (ISO/IEC 27001 A.8.25 secure development life cycle; SOC 2 CC8.1 change management).',
  compliance_frameworks: [ref(F.iso27001, 'A.8.25'), ref(F.soc2, 'CC8.1')],
  examples: {
    avoid: 'Five modules all named `HTTP · Action Send Data`.',
    prefer: '`Reserve stock`, `Create invoice`, `Notify #orders` (right-click → *Rename*).',
  },
  evaluate(analysis) {
    const modules = analysis.graph.modules.filter(
      (m) => classify(m).role !== 'directive' && m.type !== 'placeholder:Placeholder',
    );
    if (modules.length <= ARC_3_MIN_MODULES) return null;
    const unlabeled = modules.filter((m) => m.label === null);
    if (unlabeled.length / modules.length <= ARC_3_MAX_UNLABELED) return null;
    const findings: Finding[] = unlabeled.map((m) => ({
      moduleId: m.id,
      reason: 'keeps its default label',
      evidence: { pointer: `${m.pointer}/metadata/designer` },
    }));
    return {
      status: 'warn',
      findings,
      summary: `${unlabeled.length} of ${modules.length} modules keep their default labels`,
    };
  },
  remediation: {
    effort: 'low',
    steps(outcome) {
      return [
        `Rename the ${outcome.findings.length} modules listed in \`failing_modules\` after what they do for the business (right-click a module → **Rename**).`,
        'Add canvas **notes** to routers and error routes explaining the conditions.',
      ];
    },
  },
};
