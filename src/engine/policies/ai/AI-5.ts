/** @module engine/policies/ai/AI-5: AI calls without an output-token limit. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';
import { aiModules } from './shared.js';

const LIMIT_KEYS = [
  'max_tokens',
  'maxTokens',
  'max_completion_tokens',
  'maxCompletionTokens',
  'max_output_tokens',
  'maxOutputTokens',
  'maxLength',
  'max_new_tokens',
];

/**
 * AI-5: nothing bounds how much a model may generate per call, so cost and latency are unbounded.
 * Only calls that generate text count (`classify().output`, from the module table): an image
 * generation is billed per image (size and quality bound it), an extraction returns the fields asked
 * for, a staged file upload generates nothing, and an AI call that acts (a Vapi phone call) has no
 * output tokens. A module exported without any mapping has no prompt and generates nothing (ARC-6
 * reports it as unconfigured).
 */
export const AI_5: Policy = {
  code: 'AI-5',
  title: 'AI call without an output limit',
  category: 'AI',
  severity: 'low',
  description:
    'A text-generating AI call sets no maximum number of output tokens, so a single run can generate (and bill) far more than intended, and slow responses can time out the scenario.',
  rationale:
    'Unbounded consumption is an LLM application risk (OWASP LLM10:2025); resources must be bounded (NIST SP 800-53 SC-6 resource availability).',
  compliance_frameworks: [ref(F.nist, 'SC-6'), ref(F.iso27001, 'A.8.6')],
  examples: {
    avoid: 'A chat completion with no `max_tokens`.',
    prefer: '`"max_tokens": 800` (mapper field *Max tokens*), or `"max_completion_tokens"` in an HTTP request body.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of aiModules(analysis)) {
      const { mapper } = m;
      const cls = classify(m);
      if (cls.output !== 'text' || mapper === null || Object.keys(mapper).length === 0) continue;
      // Only an HTTP call's body is searched as text (the limit may sit inside a JSON body string).
      const text = cls.http ? JSON.stringify(mapper) : '';
      const limited = LIMIT_KEYS.some((k) => {
        const v = mapper[k];
        return (
          (typeof v === 'number' && v > 0) ||
          (typeof v === 'string' && v.trim() !== '') ||
          (cls.http && text.includes(k))
        );
      });
      if (!limited)
        findings.push({
          moduleId: m.id,
          reason: 'sets no maximum number of output tokens',
          evidence: { pointer: `${m.pointer}/mapper` },
        });
    }
    return findings.length === 0
      ? null
      : {
          status: 'warn',
          findings,
          summary: `${findings.length} AI call${findings.length === 1 ? '' : 's'} without an output limit`,
        };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      return findingModules(outcome, analysis).map(
        (m) =>
          `In ${moduleRef(m)}, set **Max tokens** (or \`max_completion_tokens\` in the request body) to what the output needs, e.g. 500-1000.`,
      );
    },
  },
};
