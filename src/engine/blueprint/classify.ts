/**
 * @module engine/blueprint/classify: what a module does, from the module table (`module-table.ts`),
 * Make built-ins and, for apps the table does not know, the verb of the action.
 * Sources: Make module naming (`app:Action`), corpus FORMAT.md (module frequencies, directives,
 * HTTP mapper keys), and the corpus facts (AI calls made through generic HTTP modules).
 */
import type { JsonObject, ModuleNode } from './types.js';
import type { AiOutput, ModuleEffect, ResolvedRow, SendChannel } from './module-table.js';
import { appChannel, appRecipients, moduleRow } from './module-table.js';
import { actionWords, aiOutputByWords, verbEffect } from './verbs.js';
import { LLM_HOSTS } from '../hosts/llm-hosts.js';

export { actionWords } from './verbs.js';

/**
 * Coarse role of a module. `write` and `delete` change data in another system; `write` includes
 * sends (effect `send`: a message delivered to people); `compute` only computes a result (AI
 * completions, code, document conversion) and changes nothing.
 */
export type ModuleRole =
  'trigger' | 'read' | 'write' | 'delete' | 'compute' | 'transform' | 'flow' | 'directive' | 'respond' | 'other';
/** What a module does, finer than its role: the module table's effects plus the built-in roles. */
export type ModuleKind = ModuleEffect | 'transform' | 'flow' | 'directive' | 'respond' | 'other';
/** Error-handler directives (Make: Ignore, Resume, Commit, Rollback, Break). */
export type Directive = 'ignore' | 'resume' | 'commit' | 'rollback' | 'break';
/** Flow-control modules (`if-else` splits into branches of which one runs, `merge` rejoins them: Make help "If-else and Merge"). */
export type FlowKind = 'router' | 'if-else' | 'merge' | 'iterator' | 'aggregator' | 'repeater' | 'sleep';
/** How a scenario is started by its first module. */
export type TriggerKind = 'webhook' | 'mailhook' | 'app-instant' | 'watch' | 'schedule';
export type { AiOutput, ModuleEffect, SendChannel };

/** How a `send` module delivers its message (from the module table). */
export interface SendInfo {
  /** `null` for an app the table does not know (the verb says it sends). */
  readonly channel: SendChannel | null;
  /** Mapper keys holding the recipients (`to`, `chatId`, `channel`); empty when unknown. */
  readonly recipients: readonly string[];
  /** Goes to the connection's own account ("Send me an e-mail", a push notification). */
  readonly toSelf: boolean;
  /** Answers the sender of an earlier message (Gmail "Reply to an e-mail"). */
  readonly reply: boolean;
}

/** Classification of one module. */
export interface ModuleClass {
  readonly role: ModuleRole;
  /** What the module does: `role` with `send` split out of `write` (module table, else the action's verb). */
  readonly effect: ModuleKind;
  /** The change can be undone (moved to the trash, relabelled, moved, a reaction); false for reads. */
  readonly reversible: boolean;
  /** Delivery details when `effect` is `send`, else `null`. */
  readonly send: SendInfo | null;
  /**
   * A write that saves a message or entry as a draft for a person to send or publish (module table
   * `draft`; for apps without a row, a `draft` in the action name).
   */
  readonly draft: boolean;
  /**
   * What an AI call that computes returns (module table `output`, else the action's words; an LLM API
   * over HTTP returns `text`); `null` for modules that are not AI and AI calls that act rather than
   * compute (a Vapi phone call).
   */
  readonly output: AiOutput | null;
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
  /**
   * An opaque sink: the module hands its input to a scenario the export does not contain
   * (`OPAQUE_SINKS`: Make *Scenarios → Call a subscenario*, the callee named by id in
   * `parameters.scenario`). A blueprint holds one scenario, so the callee is never in the same export
   * and what it does with the data cannot be followed (docs/engine.md "Blueprint coverage (issue 32)").
   */
  readonly opaque: boolean;
}

/** Make built-in / tool apps that never leave the platform. */
export const INTERNAL_APPS: ReadonlySet<string> = new Set([
  'builtin',
  'util',
  'json',
  'regexp',
  'text',
  'math',
  'csv',
  'xml',
  'markdown',
  'html',
  'placeholder',
  'flow-control',
  'tools',
  'datastore',
  'gateway',
  'scenario-service',
  'make',
  'iml',
  'archive',
  'compress',
]);

/** Transform-only apps (FORMAT.md: util, json, regexp, text, math and friends). */
export const TRANSFORM_APPS: ReadonlySet<string> = new Set([
  'util',
  'json',
  'regexp',
  'text',
  'math',
  'csv',
  'xml',
  'markdown',
  'html',
  'iml',
  'tools',
  'archive',
  'compress',
]);

/**
 * AI / LLM apps, by the namespace of their module ids: the catalog that makes a module an AI call
 * (issue 32: never a name that merely ends in `-ai`, which scrapers such as `browse-ai` and
 * `webscraping-ai` share). From the exports: `openai-gpt-3`, `anthropic-claude`, `gemini-ai`,
 * `perplexity-ai`, `ai-tools`, `ai-agent`, `dumplingai` (both corpora); `vapi`, `elevenlabs`
 * (make-extra MANIFEST, "AI/LLM" definition), `open-router` beside `openrouter` (issue 14, item 7);
 * Make AI Agents run in the scenario (`ai-local-agent`) and Make AI Web Search (`make-ai-web-search`)
 * (make-more MANIFEST, "AI/LLM" definition); further generative-AI apps of the Make app directory.
 * Compared without `-`, `_` and `.` (`aiAppKey`), so `open-router` and `openrouter` are one app.
 */
export const AI_APPS: ReadonlySet<string> = new Set(
  [
    'openai-gpt-3',
    'openai',
    'chatgpt',
    'azure-openai',
    'anthropic-claude',
    'anthropic',
    'claude',
    'gemini-ai',
    'google-gemini',
    'google-vertex-ai',
    'perplexity-ai',
    'ai-tools',
    'ai-agent',
    'ai-local-agent',
    'make-ai-agents',
    'make-ai-tools',
    'make-ai-web-search',
    'make-ai-extractors',
    'dumplingai',
    'open-router',
    'mistral-ai',
    'mistral',
    'groq',
    'cohere',
    'deepseek',
    'hugging-face',
    'replicate',
    'xai',
    'grok',
    'stability-ai',
    'vapi',
    'elevenlabs',
    'assemblyai',
    'deepgram',
    'deepseek-ai',
    'together-ai',
    'fireworks-ai',
    'leonardo-ai',
  ].map(aiAppKey),
);

/** An app name without case, `-`, `_` and `.`: `open-router`, `OpenRouter` and `openrouter` give `openrouter`. */
export function aiAppKey(app: string): string {
  return app.toLowerCase().replace(/[-_.]/g, '');
}

/** True for an AI / LLM app: one of `AI_APPS`, in any spelling (never by a name that ends in `-ai`). */
export function isAiApp(app: string): boolean {
  return AI_APPS.has(aiAppKey(app));
}

/** Hosts of LLM APIs called through generic HTTP modules (the catalog `engine/hosts/llm-hosts`, with each provider's API reference). */
export const AI_HOSTS: readonly string[] = LLM_HOSTS.map((h) => h.host);
/**
 * AI hosts whose calls act in the world rather than compute a reply: Vapi places phone calls by a
 * voice agent (make-extra alozieai: `POST https://api.vapi.ai/call/phone`). Their HTTP role follows the method.
 */
const AI_AGENT_HOSTS: readonly string[] = LLM_HOSTS.filter((h) => h.acts).map((h) => h.host);

const EMAIL_APPS: ReadonlySet<string> = new Set([
  'google-email',
  'email',
  'microsoft-email',
  'gmail',
  'smtp',
  'outlook',
  'microsoft365-email',
  'sendgrid',
  'mailgun',
  'postmark',
  'amazon-ses',
]);
/** Code apps every action of which runs the author's function (Make Code, Custom JS, cloud functions). */
export const RUNNER_APPS: ReadonlySet<string> = new Set([
  'code',
  'javascript',
  'custom-js',
  'cloudflare-workers',
  'aws-lambda',
  'google-cloud-functions',
]);
/** Code apps: the runners, and code suites some of whose actions run source text (0CodeKit). */
const CODE_APPS: ReadonlySet<string> = new Set([...RUNNER_APPS, '0codekit']);

// Maps rather than records: looking up a record by a module type parsed from JSON goes through V8's slow keyed-load path.
const DIRECTIVES: ReadonlyMap<string, Directive> = new Map(
  Object.entries({
    'builtin:Ignore': 'ignore',
    'builtin:Resume': 'resume',
    'builtin:Commit': 'commit',
    'builtin:Rollback': 'rollback',
    'builtin:Break': 'break',
  } as const),
);
const FLOW: ReadonlyMap<string, FlowKind> = new Map(
  Object.entries({
    'builtin:BasicRouter': 'router',
    'builtin:BasicIfElse': 'if-else',
    'builtin:BasicMerge': 'merge',
    'builtin:BasicFeeder': 'iterator',
    'builtin:BasicAggregator': 'aggregator',
    'builtin:BasicRepeater': 'repeater',
    'util:FunctionSleep': 'sleep',
    'util:TextAggregator': 'aggregator',
    'util:NumericAggregator': 'aggregator',
    'json:AggregateToJSON': 'aggregator',
    'csv:aggregate': 'aggregator',
    'csv:createCSV': 'aggregator',
    'csv:createCSVadvanced': 'aggregator',
    'xml:AggregateToXML': 'aggregator',
    'archive:createArchive': 'aggregator',
  } as const),
);

/**
 * Modules that answer whoever started the run: a webhook response, and a scenario's *Return output*
 * to the scenario that called it (Make *Scenario inputs and outputs*; make `sreejameesa` 3).
 */
const RESPONDERS: ReadonlySet<string> = new Set(['gateway:WebhookRespond', 'scenario-service:ReturnData']);

/**
 * Modules that pass data to another scenario, which no export contains with the caller: Make
 * *Scenarios → Call a subscenario* (`scenario-service:CallSubscenario`; make `mateipop`, make-more
 * `saifqazi92`). The called scenario starts with `scenario-service:StartSubscenario` and may answer
 * with `scenario-service:ReturnData` (`RESPONDERS`).
 */
export const OPAQUE_SINKS: ReadonlySet<string> = new Set(['scenario-service:CallSubscenario']);

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

/** Classifies a module (memoised on the node: `ModuleNode.classification`). */
export function classify(node: ModuleNode): ModuleClass {
  return (node.classification ??= computeClass(node));
}

function computeClass(node: ModuleNode): ModuleClass {
  const directive = DIRECTIVES.get(node.type) ?? null;
  const flow = FLOW.get(node.type) ?? (/aggregat/i.test(node.action) ? 'aggregator' : null);
  const http = node.app === 'http';
  const url = http ? moduleUrl(node) : null;
  const host = url ? urlHost(url) : null;
  const onHost = (hosts: readonly string[]) => host !== null && hosts.some((h) => host === h || host.endsWith(`.${h}`));
  const aiHost = onHost(AI_HOSTS);
  const ai = isAiApp(node.app) || aiHost;
  const row = http || directive || flow ? null : moduleRow(node.app, node.action);
  const { effect, reversible } = effectOf(node, {
    directive,
    flow,
    http,
    row,
    ai,
    computeHost: aiHost && !onHost(AI_AGENT_HOSTS),
  });
  return {
    role: effect === 'send' ? 'write' : effect,
    effect,
    reversible,
    send: effect === 'send' ? sendInfo(node, row) : null,
    draft: effect === 'write' && (row ? row.draft === true : actionWords(node.action).includes('draft')),
    output: ai && effect === 'compute' ? (http ? 'text' : (row?.output ?? aiOutputByWords(node.action))) : null,
    directive,
    flow,
    http,
    ai,
    email: EMAIL_APPS.has(node.app),
    code: CODE_APPS.has(node.app),
    datastore: node.app === 'datastore',
    external: !INTERNAL_APPS.has(node.app),
    connection: connectionOf(node.parameters),
    opaque: OPAQUE_SINKS.has(node.type),
  };
}

interface EffectInput {
  readonly directive: Directive | null;
  readonly flow: FlowKind | null;
  readonly http: boolean;
  readonly row: ResolvedRow | null;
  readonly ai: boolean;
  /** An HTTP call to an LLM API that returns a completion. */
  readonly computeHost: boolean;
}

/** Decision order: Make built-ins, HTTP by method, instant triggers, the module table, AI apps, the verb. */
function effectOf(node: ModuleNode, at: EffectInput): { effect: ModuleKind; reversible: boolean } {
  const fixed = (effect: ModuleKind) => ({ effect, reversible: false });
  if (at.directive) return fixed('directive');
  if (at.flow) return fixed('flow');
  if (node.type === 'gateway:CustomWebHook' || node.type === 'gateway:CustomMailHook') return fixed('trigger');
  if (RESPONDERS.has(node.type)) return fixed('respond');
  if (at.http) return fixed(at.computeHost ? 'compute' : byMethod(node));
  if (
    node.parameters &&
    typeof node.parameters['__IMTHOOK__'] !== 'undefined' &&
    node.container === 'flow' &&
    node.index === 0
  )
    return fixed('trigger');
  if (TRANSFORM_APPS.has(node.app)) return fixed('transform');
  if (at.row) {
    if (at.row.byMethod) return fixed(byMethod(node));
    const flag = at.row.permanentFlag ? node.mapper?.[at.row.permanentFlag] : undefined;
    return { effect: at.row.effect, reversible: at.row.reversible === true || flag === false || flag === 'false' };
  }
  if (at.ai) return fixed('compute');
  return verbEffect(node.app, node.action);
}

/**
 * The last path segment of a POST that searches rather than writes: REST APIs take complex queries
 * as a POST body (Elasticsearch `_search`, HubSpot `/crm/v3/objects/contacts/search`, Notion
 * `/databases/{id}/query`, make `geekalyssa-4` 34 Apollo `/news_articles/search`); the same words
 * the verb table reads as `read` in action names.
 */
const LOOKUP_SEGMENT = /^_?(?:search|query|lookup|find)(?:\.json)?$/i;

function byMethod(node: ModuleNode): ModuleEffect {
  const method = httpMethod(node);
  if (method === 'GET' || method === 'HEAD') return 'read';
  return method === 'POST' && LOOKUP_SEGMENT.test(lastPathSegment(moduleUrl(node) ?? '')) ? 'read' : 'write';
}

/** The last non-empty path segment of a URL or a relative API path, without query or fragment (`''` when none). */
function lastPathSegment(url: string): string {
  const path = url.replace(/[?#].*$/s, '').replace(/^\s*[a-z][a-z0-9+.-]{0,15}:\/\/[^/]*/i, '');
  const segments = path.split('/').filter((x) => x.trim() !== '');
  return segments[segments.length - 1]?.trim() ?? '';
}

function sendInfo(node: ModuleNode, row: ResolvedRow | null): SendInfo {
  const channel = row?.channel ?? appChannel(node.app);
  return {
    channel,
    recipients: row?.recipients ?? appRecipients(node.app),
    toSelf: row?.toSelf === true || channel === 'push',
    reply: row?.reply === true,
  };
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
  // Polling triggers: `watchRows`, `WatchCRMObjects`, and the `Trigger…` actions (`airtable:TriggerWatchRecords`,
  // `email:TriggerNewEmail`, `google-email:TriggerNewEmail`, `rss:TriggerNewArticle`).
  if (/^(?:watch|trigger)/i.test(first.action)) return 'watch';
  return 'schedule';
}
