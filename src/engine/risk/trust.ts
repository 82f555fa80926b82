/**
 * @module engine/risk/trust: how far a value can be trusted, the source-trust dimension of the risk
 * model (issue 32; `docs/engine.md`, "Risk model"). From the data flow's sources (`sources.ts`):
 * a custom webhook is `public-webhook` (anyone with its URL can call it); mail, chat, form and ticket
 * sources are `inbound-message`; feed items and scraped or fetched pages are `fetched-page`; the
 * output of an AI module is `ai-output` (a model fed another model's output: second-order injection
 * when that model read untrusted text, OWASP LLM01:2025 indirect injection); any other module's
 * output is `internal-record`; a value that maps nothing is `constant`.
 */
import type { Analysis } from '../analysis.js';
import type { ModuleSource } from '../sources.js';
import type { SourceTrust } from './types.js';

/** Source-trust order, worst first: a value mixing several is as untrusted as its worst part. */
export const TRUST_ORDER: readonly SourceTrust[] = [
  'public-webhook',
  'inbound-message',
  'fetched-page',
  'ai-output',
  'internal-record',
  'constant',
];

/** The trust of an untrusted source's output (`sources.ts` kind). */
export function trustOfSource(source: ModuleSource): SourceTrust {
  if (source.kind === 'webhook') return 'public-webhook';
  if (source.kind === 'feed' || source.kind === 'web') return 'fetched-page';
  return source.untrusted ? 'inbound-message' : 'internal-record';
}

/**
 * The trust of the output of module `moduleId`: its untrusted source when it carries one
 * (`DataFlow.untrustedSourceOf`), `ai-output` when it is AI output, else `internal-record`.
 */
export function trustOf(analysis: Analysis, moduleId: string): SourceTrust {
  const df = analysis.dataflow();
  const source = df.untrustedSourceOf(moduleId);
  if (source) return trustOfSource(source);
  return df.isAiDerived(moduleId) ? 'ai-output' : 'internal-record';
}

/** The least trusted of several values (`constant` for none). */
export function worstTrust(trusts: Iterable<SourceTrust>): SourceTrust {
  let worst = TRUST_ORDER.length - 1;
  for (const t of trusts) worst = Math.min(worst, TRUST_ORDER.indexOf(t));
  return TRUST_ORDER[worst]!;
}
