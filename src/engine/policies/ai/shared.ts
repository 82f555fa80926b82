/** @module engine/policies/ai/shared: AI modules and where their output goes (shared by the AI policies). */
import type { Analysis } from '../../analysis.js';
import type { ModuleNode } from '../../blueprint/types.js';
import type { ModuleRef } from '../../dataflow.js';
import { SharedKey } from '../../analysis.js';
import { classify } from '../../blueprint/classify.js';
import { isOutput } from './review.js';

/** Apps that deliver content to people or publish it: messaging, e-mail, social networks, CMS. */
export const PUBLISHING_APPS: ReadonlySet<string> = new Set([
  'slack',
  'telegram',
  'whatsapp-business-cloud',
  'whatsapp',
  'discord',
  'microsoft-teams',
  'google-email',
  'gmail',
  'email',
  'microsoft-email',
  'outlook',
  'sendgrid',
  'mailgun',
  'mailchimp',
  'lemlist',
  'instantly',
  'twilio',
  'vonage',
  'messagebird',
  'facebook',
  'facebook-pages',
  'instagram',
  'instagram-business',
  'linkedin',
  'twitter',
  'x',
  'threads',
  'tiktok',
  'youtube',
  'pinterest',
  'wordpress',
  'webflow',
  'contentful',
  'ghost',
  'medium',
  'ios',
  'pushover',
  'intercom',
  'zendesk',
  'freshdesk',
  'hubspotcrm',
  'gateway',
]);

/** Every AI / LLM module of the scenario. */
export function aiModules(analysis: Analysis): ModuleNode[] {
  return analysis.graph.modules.filter((m) => classify(m).ai);
}

/**
 * Modules (not AI themselves) that take AI output as input, with the references that carry it.
 * `{{7.error.message}}` in an error route is module 7's failure, not its output, and does not count.
 */
export function aiConsumers(
  analysis: Analysis,
): readonly { readonly module: ModuleNode; readonly refs: readonly ModuleRef[] }[] {
  return analysis.shared(AI_CONSUMERS, () => findAiConsumers(analysis));
}

/** AI-1, AI-4 and AI-6 each read the consumers: found once per evaluation. */
const AI_CONSUMERS = new SharedKey<readonly { readonly module: ModuleNode; readonly refs: readonly ModuleRef[] }[]>(
  'AI consumers',
);

function findAiConsumers(analysis: Analysis): { module: ModuleNode; refs: ModuleRef[] }[] {
  const df = analysis.dataflow();
  const out: { module: ModuleNode; refs: ModuleRef[] }[] = [];
  for (const m of analysis.graph.modules) {
    if (classify(m).ai) continue;
    const refs = df.aiInputs(m.id).filter((r) => isOutput(r.path));
    if (refs.length > 0) out.push({ module: m, refs });
  }
  return out;
}

/** The AI module a reference ultimately comes from (itself when it is AI, else the first AI module it derives from). */
export function aiSourceOf(analysis: Analysis, ref: ModuleRef): ModuleNode | undefined {
  const seen = new Set<string>();
  const stack = [ref.moduleId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const m = analysis.graph.byId.get(id);
    if (!m) continue;
    if (classify(m).ai) return m;
    for (const r of analysis.dataflow().aiInputs(id)) stack.push(r.moduleId);
  }
  return undefined;
}
