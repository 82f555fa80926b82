/** @module engine/policies/ai/AI-4: AI-generated content delivered without disclosure. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { findingModules, moduleRef } from '../helpers.js';
import type { Audience } from '../../risk/types.js';
import { audienceOf } from '../../risk/audience.js';
import { aiConsumers, aiSourceOf } from './shared.js';

/** Words that disclose automation or AI generation, in the literal text around the mapped output (several languages). */
const DISCLOSURE =
  /\b(?:ai|a\.i\.|artificial intelligence|generated|automated|automatic|assistant|bot|chatbot|ia|inteligencia artificial|ki|künstliche intelligenz|généré|automatisé)\b/i;

/** Who a delivery reaches, for the evidence path (never the recipient itself: it may be an address). */
const AUDIENCE_NOTE: Readonly<Record<Audience, string>> = {
  sender: 'the person who wrote',
  'third-party': 'recipients outside the team',
  public: 'the public',
  owner: 'the team',
};

/**
 * AI-4: people outside the team receive AI-generated text without being told: third parties, the
 * public, and the person chatting with a bot (EU AI Act Art. 50(1)); webhook responses go to a
 * program and notifications to the team are left out (`risk/audience.ts` `audienceOf`: audience `owner`).
 */
export const AI_4: Policy = {
  code: 'AI-4',
  title: 'AI-generated content sent without disclosure',
  category: 'AI',
  severity: 'low',
  description:
    'A message or post built from AI output is sent to people, and its fixed text never says it was generated or automated.',
  rationale:
    'People interacting with AI systems, or reading AI-generated text on matters of public interest, must be told (EU AI Act Art. 50 transparency obligations).',
  compliance_frameworks: [ref(F.aiAct, 'Art. 50'), ref(F.aiAct, 'Art. 13')],
  examples: {
    avoid: '`"text": "{{3.result}}"`',
    prefer: '`"text": "{{3.result}}\\n\\n— drafted with AI, reviewed by our team"`',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const { module: m, refs } of aiConsumers(analysis)) {
      const delivery = audienceOf(analysis, m);
      if (!delivery || delivery.audience === 'owner' || m.type === 'gateway:WebhookRespond') continue;
      const fieldTexts = analysis
        .strings()
        .filter((l) => l.module.id === m.id && refs.some((r) => r.pointer === l.pointer))
        .map((l) => l.value.replace(/\{\{[^}]*\}\}/g, ' '));
      if (fieldTexts.some((t) => DISCLOSURE.test(t))) continue;
      // Evidence path: the AI module that wrote the text → (the engine completes the steps) → this delivery.
      const source = aiSourceOf(analysis, refs[0]!)?.id ?? refs[0]!.moduleId;
      findings.push({
        moduleId: m.id,
        reason: 'delivers AI-generated text with no disclosure in its fixed text',
        evidence: { pointer: refs[0]!.pointer },
        path: [
          { moduleId: source, role: 'source', note: 'writes the text' },
          { moduleId: m.id, role: 'sink', note: `delivers it to ${AUDIENCE_NOTE[delivery.audience]}, undisclosed` },
        ],
      });
    }
    return findings.length === 0
      ? null
      : {
          status: 'warn',
          findings,
          summary: `${findings.length} AI-generated message${findings.length === 1 ? '' : 's'} without disclosure`,
        };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      return findingModules(outcome, analysis).map(
        (m) =>
          `In ${moduleRef(m)}, add a short disclosure to the fixed text (for example "Drafted with AI"), in the recipient's language.`,
      );
    },
  },
};
