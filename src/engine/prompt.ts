/**
 * @module engine/prompt: which inputs of an AI module are the prompt (issue 14, item 11). Only the
 * prompt, messages, system and input fields reach the model as text; headers, model names, API
 * keys, thread and assistant ids never do. Sources: Make app modules as exported (corpus: OpenAI
 * `CreateCompletion` `messages[].content`, `messageAssistantAdvanced` `message`, `analyzeImages`
 * `prompt`/`images`, `GenerateImage` `prompt`; Anthropic `createAMessage` `system`/`messages`;
 * Gemini `createACompletionGeminiPro` `contents[].parts[].text`/`system_instruction`; Perplexity
 * `messages`; Make AI Tools `Ask`/`Extract` `input`; Make AI Agents `RunAnAIAgent`
 * `messages`/`additionalSystemPrompt`; Dumpling AI `prompt`) and the request bodies of the
 * provider APIs (OpenAI / Groq / Anthropic chat `messages`, `system`, `prompt`, `input`).
 */
import type { ModuleNode } from './blueprint/types.js';
import type { FieldRef } from './blueprint/expressions.js';
import { classify } from './blueprint/classify.js';
import { extractRefs } from './blueprint/expressions.js';

/** Top-level mapper keys that are model input, for any AI app not listed in `PROMPT_KEYS_BY_APP`. */
const DEFAULT_PROMPT_KEYS: readonly string[] = [
  'messages',
  'message',
  'prompt',
  'prompts',
  'system',
  'systemPrompt',
  'system_prompt',
  'system_instruction',
  'systemInstruction',
  'instructions',
  'additionalInstructions',
  'additionalSystemPrompt',
  'input',
  'inputs',
  'contents',
  'content',
  'text',
  'question',
  'query',
  'context',
  'images',
  'image',
  'file',
  'files',
  'audio',
  'document',
  'documents',
  'transcript',
];

/** Top-level mapper keys that are model input, per AI app (module ids as exported; see the module doc). */
const PROMPT_KEYS_BY_APP: Readonly<Record<string, readonly string[]>> = {
  'openai-gpt-3': [
    'messages',
    'prompt',
    'message',
    'instructions',
    'additionalInstructions',
    'input',
    'images',
    'image',
    'file',
    'text',
    'system',
  ],
  'anthropic-claude': ['messages', 'system', 'prompt'],
  'gemini-ai': ['contents', 'system_instruction', 'systemInstruction', 'prompt', 'text'],
  'perplexity-ai': ['messages', 'prompt'],
  'ai-tools': ['input', 'text', 'instructions', 'prompt', 'question', 'context'],
  'ai-agent': ['messages', 'additionalSystemPrompt', 'input', 'message'],
  'ai-local-agent': ['message', 'systemPrompt', 'files'],
};

/** Leaf keys inside a prompt structure that are not text (a message's role, a part's MIME type). */
const NON_PROMPT_LEAVES: ReadonlySet<string> = new Set([
  'role',
  'type',
  'mime_type',
  'mimeType',
  'imageDetail',
  'detail',
  'model',
  'name',
  'imageUploadType',
  'fileName',
  'file_name',
]);

/** Request-body fields of an HTTP module (http:ActionSendData `data`, http:MakeRequest `jsonStringBodyContent`, form bodies). */
const HTTP_BODY_KEYS: ReadonlySet<string> = new Set([
  'data',
  'jsonStringBodyContent',
  'body',
  'bodyContent',
  'formFields',
  'formDataFields',
  'urlEncodedBodyContent',
  'multipartBodyContent',
  'rawBodyContent',
]);

/** JSON keys of an LLM API request body that are settings, not the prompt (OpenAI / Anthropic / Groq chat APIs). */
const BODY_SETTING_KEYS: ReadonlySet<string> = new Set([
  'model',
  'temperature',
  'max_tokens',
  'max_completion_tokens',
  'max_output_tokens',
  'top_p',
  'top_k',
  'n',
  'stream',
  'stop',
  'seed',
  'user',
  'presence_penalty',
  'frequency_penalty',
  'response_format',
  'tool_choice',
  'api_key',
  'apiKey',
  'key',
  'voice',
  'language',
  'assistant_id',
  'thread_id',
  'metadata',
  'role',
  'type',
  'phoneNumberId',
  'assistantId',
  'customer',
  'number',
]);

/** How far back from a `{{` the key of the JSON member holding it is looked for (characters). */
const KEY_LOOKBACK = 400;

/**
 * How a string leaf of an AI module reaches the model: `all` (every reference in it is prompt
 * text), `body` (a JSON-text request body: references under a setting key such as `model` are not
 * prompt), or `none` (headers, URL, query string, model, ids).
 * @param module An AI module (`classify(module).ai`).
 * @param pointer The leaf's absolute JSON Pointer.
 * @param fieldName The leaf's field name (`StringLeaf.fieldName`).
 */
export function promptPart(module: ModuleNode, pointer: string, fieldName: string | null): 'all' | 'body' | 'none' {
  const rel = pointer.slice(module.pointer.length).split('/');
  if (rel[1] !== 'mapper' || rel[2] === undefined) return 'none';
  const top = rel[2];
  if (classify(module).http) {
    if (!HTTP_BODY_KEYS.has(top)) return 'none';
    return rel.length === 3 ? 'body' : fieldName !== null && BODY_SETTING_KEYS.has(fieldName) ? 'none' : 'all';
  }
  const keys = PROMPT_KEYS_BY_APP[module.app] ?? DEFAULT_PROMPT_KEYS;
  if (!keys.includes(top)) return 'none';
  const leaf = rel[rel.length - 1]!;
  return rel.length > 3 && NON_PROMPT_LEAVES.has(leaf) ? 'none' : 'all';
}

/**
 * References of a JSON-text request body that are prompt text: each `{{...}}` is judged by the key
 * of the JSON member it sits in (the nearest `"key":` before it, looked for at most 400 characters
 * back); references under a setting key (`"model": "{{1.model}}"`) are dropped, any other kept.
 * Linear in the text length.
 */
export function bodyPromptRefs(text: string): FieldRef[] {
  const out: FieldRef[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('{{', from);
    if (open < 0) break;
    const close = text.indexOf('}}', open + 2);
    const end = close < 0 ? text.length : close + 2;
    if (!BODY_SETTING_KEYS.has(memberKeyBefore(text, open))) out.push(...extractRefs(text.slice(open, end)));
    from = end;
  }
  return out;
}

/** The key of the JSON member a position is in (`"content": "Hi {{1.name}}"` → `content`), `''` when none is near. */
function memberKeyBefore(text: string, at: number): string {
  const start = Math.max(0, at - KEY_LOOKBACK);
  const window = text.slice(start, at);
  const re = /"([A-Za-z_][A-Za-z0-9_]{0,40})"\s*:/g;
  let key = '';
  for (let m = re.exec(window); m; m = re.exec(window)) key = m[1]!;
  return key;
}
