/** @module engine/policies/ai/AI-7: the inventory of AI models a scenario uses. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { moduleUrl, urlHost } from '../../blueprint/classify.js';
import { aiModules } from './shared.js';

/** AI-7: every AI call is listed with its provider and model, for the organization's AI inventory. */
export const AI_7: Policy = {
  code: 'AI-7',
  title: 'AI model in use (inventory)',
  category: 'AI',
  severity: 'info',
  description:
    'The scenario calls AI / LLM models. Each call is listed with its provider and model so the organization can keep its inventory of AI use, review providers and track model changes.',
  rationale:
    'Deployers must know which AI systems they use, monitor them and keep their logs (EU AI Act Art. 26; Art. 12 record-keeping); provider changes are vendor changes (SOC 2 CC9.2).',
  compliance_frameworks: [ref(F.aiAct, 'Art. 26'), ref(F.aiAct, 'Art. 12'), ref(F.soc2, 'CC9.2')],
  examples: {
    avoid: 'AI calls nobody has inventoried.',
    prefer: 'A register of scenarios, providers and models, reviewed when this list changes.',
  },
  evaluate(analysis) {
    const findings: Finding[] = aiModules(analysis).map((m) => {
      const model = typeof m.mapper?.['model'] === 'string' ? m.mapper['model'] : null;
      const url = m.app === 'http' ? moduleUrl(m) : null;
      const provider = url ? (urlHost(url) ?? 'an AI API') : m.app;
      return {
        moduleId: m.id,
        reason: `calls ${provider}${model ? ` model \`${model.slice(0, 60)}\`` : ''}`,
        evidence: { pointer: m.pointer },
      };
    });
    return findings.length === 0
      ? null
      : {
          status: 'warn',
          findings,
          summary: `${findings.length} AI call${findings.length === 1 ? '' : 's'} to inventory`,
        };
  },
  remediation: {
    effort: 'low',
    steps() {
      return [
        'Record each listed provider and model in your AI inventory with the scenario, its purpose and its owner.',
        "Review the provider's data-processing terms and whether the use case is high-risk under the EU AI Act.",
      ];
    },
  },
};
