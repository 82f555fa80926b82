/**
 * @module engine/blueprint/classify: what a module does, from tables of apps and action verbs.
 * Sources: Make module naming (`app:Action`), corpus FORMAT.md (module frequencies, directives,
 * HTTP mapper keys), and the corpus facts (AI calls made through generic HTTP modules).
 */
import type { JsonObject, ModuleNode } from './types.js';

/** Coarse role of a module. `write` and `delete` change data in another system. */
export type ModuleRole = 'trigger' | 'read' | 'write' | 'delete' | 'transform' | 'flow' | 'directive' | 'respond' | 'other';
/** Error-handler directives (Make: Ignore, Resume, Commit, Rollback, Break). */
export type Directive = 'ignore' | 'resume' | 'commit' | 'rollback' | 'break';
/** Flow-control modules. */
export type FlowKind = 'router' | 'iterator' | 'aggregator' | 'repeater' | 'sleep';
/** How a scenario is started by its first module. */
export type TriggerKind = 'webhook' | 'mailhook' | 'app-instant' | 'watch' | 'schedule';

/** Classification of one module. */
export interface ModuleClass {
  readonly role: ModuleRole;
  readonly directive: Directive | null;
  readonly flow: FlowKind | null;
  readonly http: boolean;
  /** Calls an AI / LLM provider (an AI app, or an HTTP module whose URL host is an LLM API). */
  readonly ai: boolean;
  readonly email: boolean;
  readonly code: boolean;
  readonly datastore: boolean;
  /** Sends or reads data outside Make (any app that is not a Make built-in tool). */
  readonly external: boolean;
  /** Connection reference (`__IMTCONN__`, `__IMTHOOK__`, keychain `auth`), `null` when none. */
  readonly connection: string | null;
}

/** Make built-in / tool apps that never leave the platform. */
export const INTERNAL_APPS: ReadonlySet<string> = new Set([
  'builtin', 'util', 'json', 'regexp', 'text', 'math', 'csv', 'xml', 'markdown', 'html', 'placeholder',
  'flow-control', 'tools', 'datastore', 'gateway', 'scenario-service', 'make', 'iml', 'archive', 'compress',
]);

/** Transform-only apps (FORMAT.md: util, json, regexp, text, math and friends). */
const TRANSFORM_APPS: ReadonlySet<string> = new Set(['util', 'json', 'regexp', 'text', 'math', 'csv', 'xml', 'markdown', 'html', 'iml', 'tools', 'archive', 'compress']);

/** AI / LLM apps as they appear in Make module ids. */
export const AI_APPS: ReadonlySet<string> = new Set([
  'openai-gpt-3', 'openai', 'chatgpt', 'anthropic-claude', 'anthropic', 'claude', 'ai-tools', 'ai-agent', 'gemini-ai', 'google-gemini',
  'google-vertex-ai', 'mistral-ai', 'mistral', 'perplexity-ai', 'groq', 'cohere', 'deepseek', 'hugging-face', 'huggingface', 'replicate',
  'azure-openai', 'openrouter', 'dumplingai', 'xai', 'grok', 'stability-ai', 'make-ai-agents', 'make-ai-tools', 'elevenlabs', 'assemblyai', 'deepgram',
]);

/** App names that announce an AI product (`dumplingai`, `ai-tools`, `gemini-ai`, `xyz-gpt`). */
export const AI_APP_NAME = /(?:^|-)(?:ai|gpt|llm)(?:-|$)|^[a-z]{3,}ai$/;

/** Hosts of LLM APIs called through generic HTTP modules (corpus facts: api.groq.com). */
export const AI_HOSTS: readonly string[] = [
  'api.openai.com', 'api.groq.com', 'api.anthropic.com', 'generativelanguage.googleapis.com', 'api.mistral.ai', 'api.perplexity.ai',
  'openrouter.ai', 'api.deepseek.com', 'api.cohere.ai', 'api.cohere.com', 'api-inference.huggingface.co', 'api.replicate.com',
  'api.together.xyz', 'api.fireworks.ai', 'api.x.ai', 'openai.azure.com', 'aiplatform.googleapis.com', 'api.elevenlabs.io',
];

const EMAIL_APPS: ReadonlySet<string> = new Set(['google-email', 'email', 'microsoft-email', 'gmail', 'smtp', 'outlook', 'microsoft365-email', 'sendgrid', 'mailgun', 'postmark', 'amazon-ses']);
const CODE_APPS: ReadonlySet<string> = new Set(['code', 'javascript', 'custom-js', 'cloudflare-workers', 'aws-lambda', 'google-cloud-functions', '0codekit']);

const DIRECTIVES: Readonly<Record<string, Directive>> = {
  'builtin:Ignore': 'ignore', 'builtin:Resume': 'resume', 'builtin:Commit': 'commit', 'builtin:Rollback': 'rollback', 'builtin:Break': 'break',
};
const FLOW: Readonly<Record<string, FlowKind>> = {
  'builtin:BasicRouter': 'router', 'builtin:BasicFeeder': 'iterator', 'builtin:BasicAggregator': 'aggregator',
  'builtin:BasicRepeater': 'repeater', 'util:FunctionSleep': 'sleep', 'util:TextAggregator': 'aggregator',
  'util:NumericAggregator': 'aggregator', 'json:AggregateToJSON': 'aggregator', 'csv:aggregate': 'aggregator',
  'csv:createCSV': 'aggregator', 'csv:createCSVadvanced': 'aggregator', 'xml:AggregateToXML': 'aggregator', 'archive:createArchive': 'aggregator',
};

/** First verb word of an action name → role. Checked in order; the first matching prefix wins. */
const VERB_ROLES: readonly (readonly [string, ModuleRole])[] = [
  ['watch', 'trigger'],
  ['delete', 'delete'], ['remove', 'delete'], ['clear', 'delete'], ['trash', 'delete'], ['destroy', 'delete'], ['purge', 'delete'],
  ['create', 'write'], ['add', 'write'], ['update', 'write'], ['upsert', 'write'], ['send', 'write'], ['upload', 'write'],
  ['post', 'write'], ['insert', 'write'], ['append', 'write'], ['put', 'write'], ['patch', 'write'], ['publish', 'write'],
  ['reply', 'write'], ['share', 'write'], ['move', 'write'], ['copy', 'write'], ['edit', 'write'], ['modify', 'write'],
  ['replace', 'write'], ['submit', 'write'], ['write', 'write'], ['archive', 'write'], ['merge', 'write'], ['batch', 'write'],
  ['make', 'write'], ['run', 'write'], ['execute', 'write'], ['start', 'write'], ['invite', 'write'], ['assign', 'write'],
  ['get', 'read'], ['list', 'read'], ['search', 'read'], ['filter', 'read'], ['find', 'read'], ['retrieve', 'read'],
  ['download', 'read'], ['read', 'read'], ['fetch', 'read'], ['lookup', 'read'], ['query', 'read'], ['check', 'read'], ['iterate', 'read'],
];

/** Words that carry no meaning at the start of an action name (`ActionCreateRecord`, `messageAssistantAdvanced`). */
const NOISE_WORDS: ReadonlySet<string> = new Set(['action', 'basic', 'function', 'universal', 'advanced', 'simple', 'new', 'custom']);

/** Splits `ActionCreateRecord` into `['action','create','record']`. */
export function actionWords(action: string): string[] {
  return action.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]/g, ' ').toLowerCase().split(/\s+/).filter(Boolean);
}

/** The URL an HTTP-like module calls (`mapper.url`, else `parameters.url`), `null` when none is literal text. */
export function moduleUrl(node: ModuleNode): string | null {
  const fromMapper = node.mapper?.['url'];
  if (typeof fromMapper === 'string') return fromMapper;
  const fromParams = node.parameters?.['url'];
  return typeof fromParams === 'string' ? fromParams : null;
}

/** Host of a URL string, lower-case, or `null` when it does not start with a literal `scheme://host`. */
export function urlHost(url: string): string | null {
  const m = /^\s*[a-z][a-z0-9+.-]{0,15}:\/\/(?:[^@/?#\s]{0,256}@)?([^/:?#\s{}]{1,253})/i.exec(url);
  return m?.[1] ? m[1].toLowerCase() : null;
}

/** HTTP method of an HTTP module (Make default is GET). */
export function httpMethod(node: ModuleNode): string {
  const method = node.mapper?.['method'];
  return typeof method === 'string' && method.trim() !== '' ? method.trim().toUpperCase() : 'GET';
}

const cache = new WeakMap<ModuleNode, ModuleClass>();

/** Classifies a module (memoised per node). */
export function classify(node: ModuleNode): ModuleClass {
  let cls = cache.get(node);
  if (!cls) {
    cls = computeClass(node);
    cache.set(node, cls);
  }
  return cls;
}

function computeClass(node: ModuleNode): ModuleClass {
  const directive = DIRECTIVES[node.type] ?? null;
  const flow = FLOW[node.type] ?? (/aggregat/i.test(node.action) ? 'aggregator' : null);
  const http = node.app === 'http';
  const url = http ? moduleUrl(node) : null;
  const host = url ? urlHost(url) : null;
  const aiHost = host !== null && AI_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
  return {
    role: roleOf(node, directive, flow, http),
    directive,
    flow,
    http,
    ai: AI_APPS.has(node.app) || AI_APP_NAME.test(node.app) || aiHost,
    email: EMAIL_APPS.has(node.app),
    code: CODE_APPS.has(node.app),
    datastore: node.app === 'datastore',
    external: !INTERNAL_APPS.has(node.app),
    connection: connectionOf(node.parameters),
  };
}

function roleOf(node: ModuleNode, directive: Directive | null, flow: FlowKind | null, http: boolean): ModuleRole {
  if (directive) return 'directive';
  if (flow) return 'flow';
  if (node.type === 'gateway:CustomWebHook' || node.type === 'gateway:CustomMailHook') return 'trigger';
  if (node.type === 'gateway:WebhookRespond') return 'respond';
  if (http) return httpMethod(node) === 'GET' || httpMethod(node) === 'HEAD' ? 'read' : 'write';
  if (node.parameters && typeof node.parameters['__IMTHOOK__'] !== 'undefined' && node.container === 'flow' && node.index === 0) return 'trigger';
  if (TRANSFORM_APPS.has(node.app)) return 'transform';
  const words = actionWords(node.action).filter((w) => !NOISE_WORDS.has(w));
  for (const word of words.slice(0, 2)) {
    for (const [verb, role] of VERB_ROLES) if (word.startsWith(verb)) return role;
  }
  return 'other';
}

function connectionOf(parameters: JsonObject | null): string | null {
  if (!parameters) return null;
  for (const key of ['__IMTCONN__', '__IMTHOOK__', 'auth', 'account', 'connection']) {
    const v = parameters[key];
    if (typeof v === 'number' || (typeof v === 'string' && v !== '')) return `${key}:${v}`;
  }
  return null;
}

/** How the scenario is started, from its first top-level module and `metadata.instant`. */
export function triggerKind(first: ModuleNode | undefined, instant: boolean | null): TriggerKind {
  if (!first) return 'schedule';
  if (first.type === 'gateway:CustomWebHook') return 'webhook';
  if (first.type === 'gateway:CustomMailHook') return 'mailhook';
  if (first.parameters && first.parameters['__IMTHOOK__'] !== undefined) return 'app-instant';
  if (instant === true) return 'app-instant';
  if (/^watch/i.test(first.action)) return 'watch';
  return 'schedule';
}
