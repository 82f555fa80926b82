/**
 * @module engine/blueprint/verbs: the fallback classification of an action by its verb, for apps the
 * module table does not know (Make action names start with a verb: `ActionCreateRecord`,
 * `watchRows`, `sendAnEmail`; corpus FORMAT.md).
 */
import type { AiOutput, ModuleEffect } from './module-table.js';
import { appChannel } from './module-table.js';

/**
 * Fallback for apps the module table does not know: the first verb word of the action name → what
 * the module does, and whether the change can be undone. Checked in order; the first matching prefix wins.
 */
const VERB_EFFECTS: readonly (readonly [string, ModuleEffect, boolean?])[] = [
  ['watch', 'trigger'],
  ['trigger', 'trigger'],
  ['delete', 'delete'],
  ['remove', 'delete'],
  ['clear', 'delete'],
  ['trash', 'delete', true],
  ['destroy', 'delete'],
  ['purge', 'delete'],
  ['send', 'send'],
  ['reply', 'send'],
  ['post', 'send'],
  ['publish', 'send'],
  ['tweet', 'send'],
  ['notify', 'send'],
  ['create', 'write'],
  ['add', 'write'],
  ['update', 'write'],
  ['upsert', 'write'],
  ['upload', 'write'],
  ['insert', 'write'],
  ['append', 'write'],
  ['put', 'write'],
  ['patch', 'write'],
  ['share', 'write'],
  ['move', 'write', true],
  ['copy', 'write'],
  ['edit', 'write'],
  ['modify', 'write'],
  ['replace', 'write'],
  ['submit', 'write'],
  ['write', 'write'],
  ['archive', 'write', true],
  ['merge', 'write'],
  ['batch', 'write'],
  ['make', 'write'],
  ['run', 'write'],
  ['execute', 'write'],
  ['start', 'write'],
  ['invite', 'write'],
  ['assign', 'write'],
  ['get', 'read'],
  ['list', 'read'],
  ['search', 'read'],
  ['filter', 'read'],
  ['find', 'read'],
  ['retrieve', 'read'],
  ['download', 'read'],
  ['read', 'read'],
  ['fetch', 'read'],
  ['lookup', 'read'],
  ['query', 'read'],
  ['check', 'read'],
  ['iterate', 'read'],
];
/** What a create/add action of a messaging or publishing app makes that is a delivery (`createMessage`, `createPost`). */
const MESSAGE_WORDS = /^(?:message|post|tweet|pin|comment|reply|email|mail|sms|notification|status|story|reel)s?$/;

/** Words that carry no meaning at the start of an action name (`ActionCreateRecord`, `messageAssistantAdvanced`). */
const NOISE_WORDS: ReadonlySet<string> = new Set([
  'action',
  'basic',
  'function',
  'universal',
  'advanced',
  'simple',
  'new',
  'custom',
]);

/**
 * Splits `ActionCreateRecord` into `['action','create','record']`: a word ends at `_`, `-`,
 * whitespace, and before a capital that follows a lower-case letter or digit; words are lower-cased.
 * One pass over ASCII names (classify calls it per module per evaluation); other names take the
 * regular-expression path, which handles Unicode case and white space.
 */
export function actionWords(action: string): string[] {
  const words: string[] = [];
  let start = 0;
  for (let i = 0; i < action.length; i++) {
    const c = action.charCodeAt(i);
    if (c >= 0x80) return unicodeActionWords(action);
    const separator = c === 0x5f || c === 0x2d || c === 0x20 || (c >= 0x09 && c <= 0x0d);
    const capitalAfterLower = c >= 0x41 && c <= 0x5a && i > 0 && isLowerOrDigit(action.charCodeAt(i - 1));
    if (!separator && !capitalAfterLower) continue;
    if (i > start) words.push(action.slice(start, i).toLowerCase());
    start = separator ? i + 1 : i;
  }
  if (action.length > start) words.push(action.slice(start).toLowerCase());
  return words;
}

function isLowerOrDigit(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

function unicodeActionWords(action: string): string[] {
  return action
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]/g, ' ')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
}

/**
 * What an action does, from its verb, for apps the module table does not know (`createInvoice` →
 * write, `sendInvoice` → send, `trashMessage` → reversible delete); `other` without a known verb.
 */
export function verbEffect(app: string, action: string): { effect: ModuleEffect | 'other'; reversible: boolean } {
  const words = actionWords(action).filter((w) => !NOISE_WORDS.has(w));
  const channel = appChannel(app);
  // A draft waits for a person to send it (`createADraft`, `ActionCreateDraft`).
  if (words.includes('draft')) return { effect: 'write', reversible: false };
  for (const word of words.slice(0, 2)) {
    for (const [verb, effect, reversible] of VERB_EFFECTS) {
      if (!word.startsWith(verb)) continue;
      const delivers =
        effect === 'write' &&
        channel !== null &&
        (verb === 'create' || verb === 'add') &&
        words.some((w) => MESSAGE_WORDS.test(w));
      return { effect: delivers ? 'send' : effect, reversible: reversible === true };
    }
  }
  return { effect: 'other', reversible: false };
}

/**
 * What an AI action returns, from its words, for AI actions the module table has no row for
 * (`CreateTranscription`, `textToSpeech`, `createEmbedding`; AI-5's former list of non-generative
 * actions): extraction, classification, moderation, detection, embeddings, transcription,
 * translation and reads (list, get, download) return `data`; an image generation `image`; speech
 * `audio`; an upload `file`; anything else (completions, chats, assistants, agents) `text`.
 */
export function aiOutputByWords(action: string): AiOutput {
  const words = actionWords(action).filter((w) => !NOISE_WORDS.has(w));
  const has = (re: RegExp) => words.some((w) => re.test(w));
  if (has(/^upload/)) return 'file';
  if (has(/^(?:speech|audio|voice|tts)$/)) return 'audio';
  if (has(/^images?$/) && !has(/^(?:analy[sz]e|describe|vision)/)) return 'image';
  if (has(/^(?:extract|classif|categori[sz]|moderat|detect|embedding|transcri|translat)/)) return 'data';
  if (/^(?:list|get|download|retrieve|search|delete)/.test(words[0] ?? '')) return 'data';
  return 'text';
}
