/** @module engine/policies/ai/AI-2: prompts built from untrusted webhook input. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { findingModules, moduleRef } from '../helpers.js';
import { aiModules } from './shared.js';

/** AI-2: caller-controlled text is part of a prompt (prompt injection). */
export const AI_2: Policy = {
  code: 'AI-2',
  title: 'Prompt built from untrusted webhook input',
  category: 'AI',
  severity: 'high',
  description: 'An AI module\'s input contains data received by a webhook trigger, so anyone who can call the webhook can inject instructions into the prompt.',
  rationale: 'Prompt injection is the top LLM application risk (OWASP LLM01:2025); AI systems must be resilient to attempts to alter their behaviour through their input (EU AI Act Art. 15(5) cybersecurity; NIST SP 800-53 SI-10).',
  compliance_frameworks: [ref(F.aiAct, 'Art. 15'), ref(F.nist, 'SI-10'), ref(F.iso27001, 'A.8.26')],
  examples: { avoid: '`"messages": [{ "role": "user", "content": "{{1.message}}" }]` after a custom webhook.', prefer: 'Verify the caller (SEC-5), validate and length-limit the field, put it in a delimited user message, and never give the model tools or secrets it could misuse.' },
  evaluate(analysis) {
    const df = analysis.dataflow();
    const findings: Finding[] = [];
    for (const m of aiModules(analysis)) {
      const refs = df.untrustedInputs(m.id);
      if (refs.length > 0) findings.push({ moduleId: m.id, reason: `prompt includes webhook data (${refs.slice(0, 3).map((r) => `\`${r.moduleId}.${r.path}\``).join(', ')})`, evidence: { pointer: refs[0]!.pointer } });
    }
    return findings.length === 0 ? null : { status: 'fail', findings, summary: `${findings.length} AI module${findings.length === 1 ? '' : 's'} with prompts from webhook input` };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const steps = ['Verify the webhook caller (shared secret or signature) before the AI module runs.'];
      for (const m of findingModules(outcome, analysis)) steps.push(`In ${moduleRef(m)}, pass the caller's text only as a clearly delimited user message, truncated (e.g. \`{{substring(1.message; 0; 2000)}}\`), never inside the system instructions.`);
      steps.push('Treat the model output as untrusted too: validate it before acting on it (see AI-6).');
      return steps;
    },
  },
};
