/**
 * @module engine/policies/sec/impact-detectors: per module, what a forged webhook call can aim
 * through it (SEC-5 high impacts): a target it changes, a message it relays, a post it publishes,
 * a credential it lends, an AI agent it instructs. Acceptance set: the issue 14 reviewer's verdicts
 * (docs/engine.md, "SEC-5 and DI-1 severity").
 */
import type { Json, ModuleNode, ScenarioGraph } from '../../blueprint/types.js';
import type { CallerInput, CallerLeaf } from './caller-input.js';
import type { Impact, ImpactKind } from './forged-impact.js';
import { classify, moduleUrl, urlHost } from '../../blueprint/classify.js';
import { extractRefs } from '../../blueprint/expressions.js';
import { isCredentialName } from '../../secrets/patterns.js';
import { CHAT_WEBHOOK_HOST } from '../../hosts/chat-webhook-hosts.js';
import { MAKE_DOMAIN_HOST } from '../../hosts/make-hosts.js';
import { LOOKUP, PAYLOAD, STEERED_AI } from './caller-input.js';

/**
 * Mapper keys that name the object a write changes rather than its content: record, row, file,
 * folder, document, page, sheet, base, table and channel ids and keys (corpus keys: `id`,
 * `recordId`, `rowNumber`, `spreadsheetId`, `sheetId`, `page`, `document`, `file`, `folderId`,
 * `contactId`, `task_id`, `product_id`), and an HTTP module's `url` (its host and path only: see
 * `isTarget`). Content keys (`record`, `values`, `fields`, `name`, `text`) are not targets.
 */
const TARGET_KEY =
  /^(?:id|key|url|uri|page|file|document|folder|base|table|sheet|spreadsheet|range|channel|calendar|board|database|view)$|(?:Id|_id|ID|Ids|_ids)$|^(?:rowNumber|sheetName|tableName)$/;
/** Keys that are a target only when a flag of the module says it overwrites (Make Data store *Add/replace a record*: `overwrite`). */
const TARGET_IF_FLAG: Readonly<Record<string, { readonly key: string; readonly flag: string }>> = {
  'datastore:AddRecord': { key: 'key', flag: 'overwrite' },
};
/** Payload field names of free text: what a caller writes, not a slot such as a name or an amount (`text`, `Body`, `message`). */
const FREE_TEXT =
  /^(?:text|body|message|messages|content|comments?|notes?|description|caption|html|prompt|question|query)$/i;
/** Make AI Agents act with tools (scenarios, MCP servers, modules) configured on the agent, outside the blueprint. */
const AGENT_APPS: ReadonlySet<string> = new Set(['ai-agent', 'make-ai-agents']);
/**
 * Agents defined in the scenario itself (Make *Run a local AI agent*): the export carries their tools
 * (`tools[].flow`), so what they can do is what those tool modules do, judged like any other module;
 * with no tools they only answer (issue 32: "what an attacker can make happen", not the app's name).
 */
const LOCAL_AGENT_APPS: ReadonlySet<string> = new Set(['ai-local-agent']);
/** HTTP modules that authenticate by a connection or keychain (Make HTTP app: OAuth 2.0, API key, basic auth, client certificate). */
const AUTH_ACTIONS: Readonly<Record<string, string>> = {
  ActionSendDataOAuth: 'an OAuth connection',
  ActionSendDataAPIKeyAuth: 'an API-key keychain',
  ActionSendDataBasicAuth: 'a basic-auth keychain',
  ActionSendDataClientCertAuth: 'a client certificate',
};
/**
 * Hosts that are not another system's API: Make's own webhooks (the receiving scenario is checked
 * where it sends data on) and team-chat incoming webhooks (the team's own channel, an internal
 * notification).
 */
const notForwardingHost = (host: string) => MAKE_DOMAIN_HOST.test(host) || CHAT_WEBHOOK_HOST.test(host);
/** A URL path segment that is a key, after a credential-named one (`/with/key/<22 chars>`, z-api `/token/<24 hex>/`); `/auth/login` is not. */
const KEY_SEGMENT = /^[A-Za-z0-9_-]{16,}$/;
/** Channel names in reasons. */
const CHANNEL: Readonly<Record<string, string>> = {
  email: 'an e-mail',
  sms: 'an SMS',
  chat: 'a chat message',
  'team-chat': 'a team-chat message',
  post: 'a post',
  push: 'a notification',
};

/** Values the caller chooses: their input, a record found on it, or what an AI they steer picks. */
const CALLER = PAYLOAD | LOOKUP | STEERED_AI;
const ref = (m: ModuleNode) => `module ${m.id} (\`${m.type}\`)`;

/** Per-module detectors, worst first; each returns what forged calls can do through the module, or `null`. */
const DETECTORS: readonly (readonly [
  ImpactKind,
  (m: ModuleNode, leaves: readonly CallerLeaf[], graph: ScenarioGraph) => string | null,
])[] = [
  [
    'target',
    (m, leaves) => {
      const cls = classify(m);
      if (cls.effect !== 'write' && cls.effect !== 'delete') return null;
      const hit = leaves.find((l) => l.origin & CALLER && isTarget(m, l));
      if (!hit) return null;
      const via =
        hit.origin & PAYLOAD
          ? ''
          : hit.origin & LOOKUP
            ? ', through a lookup on their input'
            : ', through an AI they steer';
      return `choose what ${ref(m)} ${cls.effect === 'delete' ? 'deletes' : 'changes'} (\`${hit.key}\`${via})`;
    },
  ],
  [
    'relay',
    (m, leaves) => {
      const send = classify(m).send;
      if (!send || send.toSelf || send.channel === 'post') return null;
      const to = leaves.find((l) => l.origin & CALLER && send.recipients.includes(l.key));
      const body = leaves.find((l) => !send.recipients.includes(l.key) && callerAuthored(l));
      if (!to || !body) return null;
      return `make ${ref(m)} send ${CHANNEL[send.channel ?? ''] ?? 'a message'} in the organisation's name, with content they write or steer (\`${body.key}\`), to a recipient they choose (\`${to.key}\`)`;
    },
  ],
  [
    'publish',
    (m, leaves) => {
      if (classify(m).send?.channel !== 'post') return null;
      const hit = leaves.find((l) => l.origin & (PAYLOAD | STEERED_AI));
      return hit ? `publish their content through ${ref(m)} (\`${hit.key}\`)` : null;
    },
  ],
  [
    'forward',
    (m, leaves) => {
      const cls = classify(m);
      if (cls.effect !== 'write' || !(cls.http || /api.?call/i.test(m.action))) return null;
      const host = urlHost(moduleUrl(m) ?? '');
      if (host === null || notForwardingHost(host) || !leaves.some((l) => l.origin & (PAYLOAD | STEERED_AI)))
        return null;
      const credential = credentialOf(m);
      return credential
        ? `push their data into \`${host}\` through ${ref(m)}, authenticated by ${credential} the receiver trusts`
        : null;
    },
  ],
  [
    'agent',
    (m, leaves, graph) => {
      if (!isAgent(m, graph)) return null;
      return leaves.some((l) => l.origin & (PAYLOAD | STEERED_AI))
        ? `instruct the AI agent of ${ref(m)}, which acts with the tools configured on it`
        : null;
    },
  ],
];

/** Every high impact a forged call has through the modules of the scenario, in module order. */
export function moduleImpacts(input: CallerInput, modules: readonly ModuleNode[], graph: ScenarioGraph): Impact[] {
  const out: Impact[] = [];
  for (const m of modules) {
    if (m.id === input.hookId) continue;
    // Every detector needs a value the caller has a say in.
    if (!input.carries(m)) continue;
    const leaves = input.leaves(m);
    for (const [kind, detect] of DETECTORS) {
      const what = detect(m, leaves, graph);
      if (what !== null) out.push({ kind, module: m, what });
    }
  }
  return out;
}

/**
 * True for a Make AI agent whose tools are configured outside the blueprint (`ai-agent`,
 * `make-ai-agents`, an AI action named *agent*): it acts with tools the scenario cannot show. An agent
 * defined in the scenario (`ai-local-agent`) is not: its tools are modules of the export.
 */
export function isAgent(m: ModuleNode, graph: ScenarioGraph): boolean {
  if (!classify(m).ai) return false;
  if (LOCAL_AGENT_APPS.has(m.app)) return unseenTools(m, graph);
  return AGENT_APPS.has(m.app) || /agent/i.test(m.action);
}

/**
 * True when a local agent's export lists tools (`tools[]`) but none of their modules is in the parsed
 * graph (a parser that does not walk `tools[].flow`): what they do cannot be judged, so the agent
 * counts as acting with tools the scenario cannot show.
 */
function unseenTools(m: ModuleNode, graph: ScenarioGraph): boolean {
  let at: Json | undefined = graph.raw;
  for (const token of m.pointer.split('/').slice(1)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    at = Array.isArray(at) ? at[Number(key)] : at !== null && typeof at === 'object' ? at[key] : undefined;
  }
  const tools = at !== null && typeof at === 'object' && !Array.isArray(at) ? at['tools'] : undefined;
  if (!Array.isArray(tools) || tools.length === 0) return false;
  return !graph.modules.some((x) => x.parentId === m.id && x.container !== 'onerror' && x.container !== 'route');
}

/** True when a mapper key names the object a write changes (`id`, `document`, `rowNumber`, `url`...), not its content (`TARGET_KEY`). */
export function isTargetKey(key: string): boolean {
  return TARGET_KEY.test(key);
}

/** A value in a target field; for an HTTP URL, a mapping before the query string (host or path, not a query parameter). */
function isTarget(m: ModuleNode, l: CallerLeaf): boolean {
  const flagged = TARGET_IF_FLAG[m.type];
  if (flagged && l.key === flagged.key) return m.mapper?.[flagged.flag] === true;
  if (!TARGET_KEY.test(l.key)) return false;
  if (l.key !== 'url') return true;
  const path = l.leaf.value.split('?')[0] ?? '';
  return path.includes('{{') && extractRefs(path).length > 0;
}

/**
 * Content the caller writes or steers, as opposed to a template with their name in a slot: AI
 * output steered by their input, data looked up on their say, or their own free text (a payload
 * field named like `text`, `Body`, `message`, or a value that is one mapping and nothing else).
 */
function callerAuthored(l: CallerLeaf): boolean {
  if (l.origin & (STEERED_AI | LOOKUP)) return true;
  if (!(l.origin & PAYLOAD)) return false;
  const v = l.leaf.value.trim();
  const whole = v.startsWith('{{') && v.endsWith('}}') && v.indexOf('{{', 2) < 0;
  return whole || l.payloadPaths.some((p) => FREE_TEXT.test((p.split('.').pop() ?? '').replace(/\[\]/g, '')));
}

/**
 * The credential an HTTP call carries that its receiver issued: an authenticated HTTP module, an
 * authentication type, a credential-named header or query parameter (`x-make-secret`, `?auth=`), a
 * key in the URL path (`/with/key/<key>`, `/token/<token>/`), or basic-auth fields; `null` when none.
 */
export function credentialOf(m: ModuleNode): string | null {
  if (m.app === 'http' && AUTH_ACTIONS[m.action]) return AUTH_ACTIONS[m.action]!;
  const authType = m.parameters?.['authenticationType'];
  if (typeof authType === 'string' && authType !== '' && authType !== 'noAuth') return `authentication \`${authType}\``;
  if (m.app !== 'http' && classify(m).connection) return 'the app connection';
  for (const key of ['headers', 'qs', 'queryParameters']) {
    const list = m.mapper?.[key];
    if (!Array.isArray(list)) continue;
    for (const p of list) {
      const name = p && typeof p === 'object' && !Array.isArray(p) ? (p['name'] ?? p['key']) : null;
      if (typeof name === 'string' && isCredentialName(name))
        return `${key === 'headers' ? 'header' : 'query parameter'} \`${name}\``;
    }
  }
  const url = moduleUrl(m) ?? '';
  const [base, query = ''] = url.split('?');
  const queryName = query
    .split('&')
    .map((p) => p.split('=')[0] ?? '')
    .find((n) => n !== '' && isCredentialName(n));
  if (queryName) return `query parameter \`${queryName}\``;
  const segments = (base ?? '').replace(/^[a-z]+:\/\/[^/]*/i, '').split('/');
  const at = segments.findIndex((s, i) => isCredentialName(s) && KEY_SEGMENT.test(segments[i + 1] ?? ''));
  if (at >= 0 || /\/bot\d+:/.test(base ?? '')) return 'a key in the URL path';
  const user = m.mapper?.['authUser'];
  return typeof user === 'string' && user.trim() !== '' ? 'basic-auth credentials' : null;
}
