/** @module engine/policies/ai/AI-3: AI calls without error handling. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { findingModules, moduleRef } from '../helpers.js';
import { aiModules } from './shared.js';

/**
 * AI-3: AI modules fail often (rate limits, time-outs, content filters) and have no error route.
 * With *Allow storing incomplete executions* on (`metadata.scenario.dlq: true`), Make stores the
 * failed run and retries it by itself on a back-off schedule (1, 10, 10, 30... minutes) when the
 * error is a `RateLimitError`, `ConnectionError` or `ModuleTimeoutError`, and keeps other failures
 * for a person to resolve (Make help, "Automatic retry of incomplete executions"): the missing
 * route is then hygiene (low), not a lost run (medium).
 */
export const AI_3: Policy = {
  code: 'AI-3',
  title: 'AI call without error handling',
  category: 'AI',
  severity: 'medium',
  description:
    'An AI module has no error-handler route; provider rate limits, time-outs and content-filter refusals stop the run midway. Reported at low when the scenario stores incomplete executions, because Make then retries rate-limit, time-out and connection errors automatically.',
  rationale:
    'AI providers throttle and refuse routinely; robust AI use plans for failure (EU AI Act Art. 15 robustness; NIST SP 800-53 SI-11 error handling).',
  compliance_frameworks: [ref(F.aiAct, 'Art. 15'), ref(F.nist, 'SI-11')],
  examples: {
    avoid: '`openai-gpt-3:CreateCompletion` without `onerror`.',
    prefer: 'An `onerror` route with **Break** (3 retries, 60 s interval) or a fallback message via **Resume**.',
  },
  evaluate(analysis) {
    const stored = analysis.graph.settings.dlq === true;
    const findings: Finding[] = aiModules(analysis)
      .filter((m) => m.errorHandlerIds.length === 0 && m.container !== 'onerror')
      .map((m) =>
        stored
          ? {
              moduleId: m.id,
              severity: 'low' as const,
              reason:
                'calls an AI provider without an error-handler route; incomplete executions are stored, so Make retries rate-limit, time-out and connection errors itself',
              evidence: { pointer: m.pointer },
            }
          : {
              moduleId: m.id,
              reason:
                'calls an AI provider without an error-handler route and incomplete executions are not stored: a failure loses the run',
              evidence: { pointer: m.pointer },
            },
      );
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `${findings.length} AI call${findings.length === 1 ? '' : 's'} without error handling`,
        };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      return findingModules(outcome, analysis).map(
        (m) =>
          `Right-click ${moduleRef(m)} → **Add error handler** → **Break** with automatic retries (rate limits clear within minutes), or **Resume** with a safe fallback text.`,
      );
    },
  },
};
