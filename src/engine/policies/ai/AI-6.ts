/** @module engine/policies/ai/AI-6: AI output acted on without validation. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';
import { reviewStepOf, reviewSteps } from './review.js';
import { aiConsumers, aiSourceOf } from './shared.js';

/**
 * AI-6: model output drives writes, calls or code and nothing checks it first. A module that only puts
 * the output before a person does not act on it (`review.ts` `reviewStepOf`, audiences of `risk/audience.ts`): a
 * notification to the owner or the team, a draft, a record marked for review and the draft record it
 * links; the person reading it is the check (make/6302mohamed lead intake, make-extra/wade1508).
 */
export const AI_6: Policy = {
  code: 'AI-6',
  title: 'AI output used without validation',
  category: 'AI',
  severity: 'medium',
  description:
    'Output of an AI module is written to a system, sent in a request or fed to code, and no filter anywhere in the scenario checks that output first (format, allowed values, emptiness). Drafts, records marked for review and notifications to the team put the output before a person and are not reported.',
  rationale:
    'Model output is untrusted input: it may be malformed, hallucinated or injected (OWASP LLM05:2025 improper output handling). Accuracy and robustness require checks before acting on it (EU AI Act Art. 15; NIST SP 800-53 SI-10).',
  compliance_frameworks: [ref(F.aiAct, 'Art. 15'), ref(F.nist, 'SI-10'), ref(F.iso27001, 'A.8.26')],
  examples: {
    avoid: '`{{2.result}}` written straight into a CRM field.',
    prefer:
      'Ask for JSON, parse it with *Parse JSON* and a data structure, and filter on the parsed fields before writing.',
  },
  evaluate(analysis) {
    const df = analysis.dataflow();
    const checked = new Set<string>();
    for (const m of analysis.graph.modules)
      for (const r of df.filterRefsOf(m.id)) if (df.isAiDerived(r.moduleId)) checked.add(r.moduleId);
    const findings: Finding[] = [];
    const consumers = aiConsumers(analysis);
    const steps = consumers.length > 0 ? reviewSteps(analysis) : new Map<string, string>();
    for (const { module: m, refs } of consumers) {
      const cls = classify(m);
      if (!((cls.role === 'write' || cls.role === 'delete') && cls.external) && !cls.code && !cls.http) continue;
      const unchecked = refs.filter((r) => !checked.has(r.moduleId));
      if (unchecked.length === 0 || reviewStepOf(analysis, steps, m) !== null) continue;
      const source = aiSourceOf(analysis, unchecked[0]!);
      const from = source?.id ?? unchecked[0]!.moduleId;
      findings.push({
        moduleId: m.id,
        reason: `acts on output of AI module ${from} that no filter checks`,
        evidence: { pointer: unchecked[0]!.pointer },
        path: [
          { moduleId: from, role: 'source', note: 'writes the output' },
          {
            moduleId: m.id,
            role: 'sink',
            note: `${cls.code ? 'runs code on it' : cls.http ? 'sends it in a request' : cls.role === 'delete' ? 'deletes records with it' : 'writes it to another system'}; no filter checks it`,
          },
        ],
      });
    }
    return findings.length === 0
      ? null
      : {
          status: 'warn',
          findings,
          summary: `${findings.length} module${findings.length === 1 ? '' : 's'} acting on unchecked AI output`,
        };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const steps = ['Ask the model for a fixed JSON shape and parse it with **Parse JSON** and a data structure.'];
      for (const m of findingModules(outcome, analysis).slice(0, 5))
        steps.push(
          `Add a **filter** before ${moduleRef(m)} that checks the parsed fields (not empty, allowed values, length).`,
        );
      return steps;
    },
  },
};
