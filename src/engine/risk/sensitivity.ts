/**
 * @module engine/risk/sensitivity: what personal data is by its content, the sensitivity dimension
 * of the risk model (issue 32; `docs/engine.md`, "Risk model"). Kinds come from field names,
 * question titles and sources (`pii.ts`, `dataflow.ts`); this module decides which of the flows into
 * one module are personal data worth a finding, never by the kind of app the data came from:
 *
 * - special kinds (health, national ids and identity documents, tax data, CVs, card and bank
 *   numbers) always count: `special-category`;
 * - identifying kinds (a name, a contact, an identifier, an address, a birth date) count: `personal`;
 * - free text a person wrote (`personal` kind: a message, a form answer, a note) counts only when it
 *   relates to an identified person (GDPR Art. 4(1), Recital 26): an identifying kind reaches the same
 *   module, the text is correspondence (an e-mail or a support ticket, which carry the writer's name
 *   and signature) or part of a contact record, or the scenario reads who wrote it (the sender's number, address or name of the
 *   same source, anywhere in the scenario: a lead's SMS answered and filed under their number). A
 *   content bot's prompt about a topic is not personal data because it arrived on Telegram (the bot
 *   only answers the chat id), and a form's topic answer is not the respondent's e-mail that travels
 *   in the same row (`dataflow.ts` judges each answer by its question's title).
 */
import type { Analysis } from '../analysis.js';
import type { PiiFlow } from '../dataflow.js';
import type { PiiKind } from '../pii.js';
import type { Sensitivity } from './types.js';
import { SharedKey } from '../analysis.js';
import { IDENTIFYING_PII, SPECIAL_PII, isPartyField, piiKind } from '../pii.js';

/**
 * Source kinds whose free text belongs to an identified person (`sources.ts`): correspondence that
 * names its writer (an e-mail, a support ticket) and a contact or lead record.
 */
const CORRESPONDENCE: ReadonlySet<string> = new Set(['mail', 'ticket', 'contact']);

/** The sensitivity of data of these kinds: `special-category` when any is special, `personal` when any other, else `none`. */
export function sensitivityOf(kinds: Iterable<PiiKind>): Sensitivity {
  let out: Sensitivity = 'none';
  for (const k of kinds) {
    if (SPECIAL_PII.has(k)) return 'special-category';
    out = 'personal';
  }
  return out;
}

/**
 * The flows into one module that are personal data by what they are (see the module comment): free
 * text that identifies no one is left out. Pure; linear in the flows.
 */
export function identifyingFlows(analysis: Analysis, flows: readonly PiiFlow[]): PiiFlow[] {
  const identified = flows.some(
    (f) => IDENTIFYING_PII.has(f.kind) || SPECIAL_PII.has(f.kind) || isPartyField(f.from.path),
  );
  if (identified) return [...flows];
  const df = analysis.dataflow();
  return flows.filter((f) => {
    if (f.kind !== 'personal') return true;
    const source = df.sourceOf(f.from.moduleId);
    return source !== null && (CORRESPONDENCE.has(source.kind) || identifiedSources(analysis).has(f.from.moduleId));
  });
}

const IDENTIFIED = new SharedKey<ReadonlySet<string>>('sources whose writer the scenario reads');

/**
 * Source modules whose writer the scenario identifies: some module maps or filters on a field of the
 * source that names or reaches the person (a party of the message, an e-mail, a phone, a name; not a
 * chat or message id). Computed once per evaluation.
 */
function identifiedSources(analysis: Analysis): ReadonlySet<string> {
  return analysis.shared(IDENTIFIED, () => {
    const df = analysis.dataflow();
    const out = new Set<string>();
    for (const m of analysis.graph.modules)
      for (const r of [...df.refsOf(m.id), ...df.filterRefsOf(m.id)]) {
        if (out.has(r.moduleId)) continue;
        const source = df.sourceOf(r.moduleId);
        if (!source) continue;
        const kind = piiKind(r.path, source.personal === 'content' ? 'person' : source.personal);
        if (isPartyField(r.path) || (kind !== null && IDENTIFYING_PII.has(kind))) out.add(r.moduleId);
      }
    return out;
  });
}
