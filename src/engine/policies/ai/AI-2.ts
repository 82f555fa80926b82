/** @module engine/policies/ai/AI-2: prompts built from untrusted input (webhooks, e-mail, chat, forms, tickets, feeds, web pages). */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { findingModules, moduleRef } from '../helpers.js';
import type { EvidenceStep } from '../../risk/types.js';
import { assessInjection } from './injection-reach.js';
import { aiModules } from './shared.js';
import { trustOf, worstTrust } from '../../risk/trust.js';

/**
 * AI-2: attacker-controllable text is part of a prompt (prompt injection). Untrusted sources are
 * those of `sources.ts` (issue 14, item 2: inbound e-mail, chat messages, RSS items, scraped pages,
 * public form submissions and support tickets, as well as webhooks); only the prompt fields of the
 * AI module count (`prompt.ts`, item 11: never a header, the model or an id). Severity is what the
 * injected output can make the scenario do (`injection-reach.ts`, OWASP LLM06:2025 Excessive Agency):
 * high when it can act (an agent, a message to outsiders, a write it aims, a requested address, a
 * decision on money, deletes or posts), medium when it only answers the asker, reaches the team or
 * is stored for people to read, low when nothing uses it.
 */
export const AI_2: Policy = {
  code: 'AI-2',
  title: 'Prompt built from untrusted input',
  category: 'AI',
  severity: 'high',
  description:
    "An AI module's prompt contains text that someone outside the organisation controls (a webhook payload, an incoming e-mail or chat message, a public form submission, a support ticket, an RSS item or a fetched web page), so that person can inject instructions into the prompt. Severity is the risk-model row of what the model's output can then make the scenario do: high when it can act (an AI agent, R4; a write, message or request it aims, R5, R6, R8; a post, R7; a decision to move money, delete or publish, R10; a message to people outside the team, R11), medium when it only answers the person whose message or submission started the run (also at the address typed into that form row or webhook payload), reaches the owner or team, is stored for people to read or feeds look-ups (R12), low when no later module uses it (R13).",
  rationale:
    'Prompt injection, direct and indirect (through e-mails, messages and web content the model reads), is the top LLM application risk (OWASP LLM01:2025); AI systems must be resilient to attempts to alter their behaviour through their input (EU AI Act Art. 15(5) cybersecurity; NIST SP 800-53 SI-10).',
  compliance_frameworks: [ref(F.aiAct, 'Art. 15'), ref(F.nist, 'SI-10'), ref(F.iso27001, 'A.8.26')],
  examples: {
    avoid:
      '`"messages": [{ "role": "user", "content": "Reply to: {{1.text}}" }]` after a Gmail *Watch emails* trigger or a custom webhook.',
    prefer:
      'Put the outside text only in a delimited, length-limited user message, keep instructions in the system message, give the model no tools or secrets it could misuse, and review its output before it acts (AI-1, AI-6).',
  },
  evaluate(analysis) {
    const df = analysis.dataflow();
    const findings: Finding[] = [];
    for (const m of aiModules(analysis)) {
      const refs = df.promptRefsOf(m.id).filter((r) => df.isUntrusted(r.moduleId));
      if (refs.length === 0) continue;
      const sources = [
        ...new Set(
          refs.map((r) => df.untrustedSourceOf(r.moduleId)?.label).filter((l): l is string => l !== undefined),
        ),
      ];
      const { severity, why, risk, sink } = assessInjection(analysis, m);
      const fields = [...new Set(refs.map((r) => `\`${r.moduleId}.${r.path}\``))].slice(0, 3).join(', ');
      const origin = df.untrustedSourceOf(refs[0]!.moduleId);
      const sourceId = df.untrustedOriginOf(refs[0]!.moduleId) ?? refs[0]!.moduleId;
      const path: EvidenceStep[] = [
        { moduleId: sourceId, role: 'source', note: origin?.label ?? 'untrusted input' },
        ...(sink === m ? [] : [{ moduleId: m.id, role: 'step' as const, note: 'the prompt carries it' }]),
        { moduleId: sink.id, role: 'sink', note: why.replace(/^[^:]*: /, '').slice(0, 200) },
      ];
      findings.push({
        moduleId: m.id,
        reason: `prompt includes ${sources.slice(0, 2).join(' and ')} (${fields}); ${why}`,
        severity,
        evidence: { pointer: refs[0]!.pointer },
        risk: { ...risk, trust: worstTrust(refs.map((r) => trustOf(analysis, r.moduleId))) },
        path,
      });
    }
    if (findings.length === 0) return null;
    const summary = `${findings.length} AI module${findings.length === 1 ? '' : 's'} with prompts from untrusted input`;
    // Injected output nothing uses is a warning: the model runs, but nothing acts on or shows what it writes.
    return { status: findings.every((f) => f.severity === 'low') ? 'warn' : 'fail', findings, summary };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const steps = [
        'Where the input comes from a webhook, verify the caller (shared secret or signature) before the AI module runs (SEC-5); for e-mail and chat, restrict the trigger to known senders where you can.',
      ];
      for (const m of findingModules(outcome, analysis))
        steps.push(
          `In ${moduleRef(m)}, pass the outside text only as a clearly delimited user message, truncated (e.g. \`{{substring(1.text; 0; 2000)}}\`), never inside the system instructions.`,
        );
      steps.push(
        'Treat the model output as untrusted too: validate it before acting on it (see AI-6) and have a person review anything sent on (see AI-1).',
      );
      return steps;
    },
  },
};
