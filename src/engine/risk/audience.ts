/**
 * @module engine/risk/audience: who receives what a module delivers, the audience dimension of the
 * risk model (issue 32; `docs/engine.md`, "Risk model"). Decided from the module table
 * (`classify().send`: channel, recipient keys, to-self, reply) and the recipients' values, never
 * from names:
 *
 * - `public`: a post (channel `post`), a message to a public Telegram channel named `@channel`;
 * - `owner`: the connection's own account, the team's workspace (Slack, Teams), or a recipient
 *   written in the scenario: a literal address, phone or chat id, also when it passes through a
 *   set-variable module (`util:SetVariable(s)`), a template placeholder;
 * - `sender`: the person whose message started the run, when the channel identifies them: a chat
 *   reply (the platform authenticates the chat), an e-mail whose recipient is the trigger mail's
 *   own sender (`from`, `replyTo`), a reply to the trigger's message, a webhook response to its
 *   caller;
 * - `sender` too: the address typed into the very submission that started the run (a form's row, a
 *   custom webhook's payload) when the delivery answers that submission: the person who asked gets
 *   the answer. That anyone can type someone else's address is the forged-caller risk of the trigger
 *   (SEC-5 on a public webhook; AI-2 when the submitter steers what is written), not a delivery to a
 *   third party by design (issue 32: "the person who triggered it");
 * - `third-party`: any other recipient taken from the data (a looked-up record, an earlier message,
 *   a list).
 *
 * Used by AI-1, AI-2 (`policies/ai/injection-reach.ts`), AI-4, AI-6, OPS-1, DI-2 and PRIV-6.
 * Memoised per `Analysis` (one entry per module).
 */
import type { Analysis } from '../analysis.js';
import type { FieldRef } from '../blueprint/expressions.js';
import type { Json, ModuleNode } from '../blueprint/types.js';
import type { Audience } from './types.js';
import { SharedKey } from '../analysis.js';
import { classify } from '../blueprint/classify.js';
import { extractRefs } from '../blueprint/expressions.js';
import { FREE_MAIL_DOMAINS } from '../hosts/mail-domains.js';

/**
 * Why a delivery has its audience: `respond` (a webhook response), `post`, `self` (the connection's
 * own account, a push notification), `team` (Slack, Teams), `own-address` (the connection's own
 * address or domain), `private-chat` (one fixed private Telegram chat), `placeholder` (a template
 * slot), `literal` (a fixed recipient written in the scenario, possibly through a variable),
 * `reply` / `trigger-sender` (the sender of the trigger's message), `data` (a recipient from the data).
 */
export type DeliveryBasis =
  | 'respond'
  | 'post'
  | 'self'
  | 'team'
  | 'own-address'
  | 'private-chat'
  | 'placeholder'
  | 'literal'
  | 'reply'
  | 'trigger-sender'
  | 'submitter'
  | 'data';

/** Who receives a delivery, why (completes "module N …": "sends it by e-mail to …"), and on what basis. */
export interface Delivery {
  readonly audience: Audience;
  readonly why: string;
  readonly basis: DeliveryBasis;
}

/** Reserved example domains (RFC 2606, RFC 6761): masked or placeholder addresses, no evidence. */
const RESERVED = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost)$/;
const EMAIL = /[^\s<>()"',;:]+@([a-z0-9.-]+\.[a-z]{2,})/gi;
/** How a channel reads in a reason. */
const CHANNEL_NAMES: Readonly<Record<string, string>> = {
  email: 'e-mail',
  sms: 'SMS',
  chat: 'chat message',
  'team-chat': 'team chat',
  post: 'post',
  push: 'push notification',
};
/**
 * Chat apps whose literal recipient id shows a private chat with one user. Telegram Bot API: a
 * private chat's id is the user's id, a positive integer; groups have negative ids, supergroups and
 * channels `-100…`, public channels `@name`.
 */
const PRIVATE_CHAT_ID: Readonly<Record<string, RegExp>> = { telegram: /^[1-9]\d{0,15}$/ };
/**
 * Literal chat ids that name a public channel: in the Telegram Bot API `@channelusername` addresses a
 * public channel or supergroup (only public chats have a username), so a message there is published.
 */
const PUBLIC_CHAT_NAME: Readonly<Record<string, RegExp>> = { telegram: /^@\w{4,}$/ };
/** Make's variable modules (Tools: Set / Get variable(s)); their outputs are named variables. */
const SET_VARIABLES: ReadonlySet<string> = new Set(['util:SetVariables', 'util:SetVariable2', 'util:SetVariable']);
const GET_VARIABLES: ReadonlySet<string> = new Set(['util:GetVariables', 'util:GetVariable2', 'util:GetVariable']);
/**
 * Fields of an inbound e-mail that name its sender (Gmail `from.address`, `fromEmail`, IMAP
 * `sender.address`, `replyTo`): a reply there goes back to whoever wrote.
 */
const MAIL_SENDER =
  /(?:^|\.)(?:from|sender|reply_?to|return_?path)(?:[A-Z_.[]|email|address|$)|(?:^|\.)(?:from|sender)\w*$/i;
/** Source kinds whose channel identifies the sender of the message that starts a run (`sources.ts`). */
const IDENTIFIED_SENDER: ReadonlySet<string> = new Set(['mail', 'chat', 'ticket']);

const DELIVERIES = new SharedKey<Map<string, Delivery | null>>('risk audience of each module');

/**
 * The audience of what module `m` delivers, or `null` when it delivers nothing to people (a record,
 * a draft, a document; a send whose channel the module table does not know). Memoised per analysis.
 */
export function audienceOf(analysis: Analysis, m: ModuleNode): Delivery | null {
  const memo = analysis.shared(DELIVERIES, () => new Map<string, Delivery | null>());
  let d = memo.get(m.id);
  if (d === undefined) memo.set(m.id, (d = computeAudience(analysis, m)));
  return d;
}

function computeAudience(analysis: Analysis, m: ModuleNode): Delivery | null {
  const cls = classify(m);
  if (cls.effect === 'respond')
    return { audience: 'sender', why: 'returns it to the caller of the webhook', basis: 'respond' };
  const send = cls.send;
  if (!send || send.channel === null) return null;
  if (send.channel === 'post') return { audience: 'public', why: 'publishes it', basis: 'post' };
  if (send.toSelf) return { audience: 'owner', why: "sends it to the connection's own account", basis: 'self' };
  // Slack and Teams stay inside the owner's workspace, whoever the channel or user is.
  if (send.channel === 'team-chat')
    return { audience: 'owner', why: "posts it in the team's own workspace", basis: 'team' };
  const channel = CHANNEL_NAMES[send.channel] ?? 'message';
  const values = send.recipients.flatMap((k) => strings(m.mapper?.[k]));
  if (values.length === 0 && send.reply) {
    return identifiedSender(analysis)
      ? {
          audience: 'sender',
          why: `replies by ${channel} to the sender of the message that started the run`,
          basis: 'reply',
        }
      : { audience: 'third-party', why: `replies by ${channel} to the sender of an earlier message`, basis: 'data' };
  }
  const mapped = values.filter((v) => v.includes('{{'));
  if (mapped.length > 0) {
    const refs = mapped.flatMap((v) => extractRefs(v));
    const literal = refs.length > 0 ? literalVariables(analysis, refs) : null;
    if (literal !== null && mapped.every((v) => v.replace(/\{\{[^}]*\}\}/g, '').trim() === ''))
      return {
        audience: 'owner',
        why: `sends it by ${channel} to a fixed recipient set in a variable (\`${literal.slice(0, 60)}\`)`,
        basis: 'literal',
      };
    if (refs.length > 0 && refs.every((r) => isTriggerSender(analysis, r, send.channel === 'chat')))
      return {
        audience: 'sender',
        why: `answers by ${channel} the person who wrote (\`${mapped[0]!.slice(0, 60)}\`)`,
        basis: 'trigger-sender',
      };
    if (refs.length > 0 && refs.every((r) => isSubmitterAddress(analysis, r)))
      return {
        audience: 'sender',
        why: `answers by ${channel} the person who submitted the trigger's form or payload, at the address they typed (\`${mapped[0]!.slice(0, 60)}\`)`,
        basis: 'submitter',
      };
    return {
      audience: 'third-party',
      why: `sends it by ${channel} to recipients taken from the data (\`${mapped[0]!.slice(0, 60)}\`)`,
      basis: 'data',
    };
  }
  if (values.length === 0) {
    // No recipient written: the module sends where its connection or the app decides.
    return {
      audience: 'owner',
      why: `sends it by ${channel} to no recipient written in the scenario`,
      basis: 'literal',
    };
  }
  const publicChat = Object.hasOwn(PUBLIC_CHAT_NAME, m.app) ? PUBLIC_CHAT_NAME[m.app]! : null;
  if (publicChat && values.some((v) => publicChat.test(v.trim())))
    return { audience: 'public', why: `publishes it in a public channel (\`${values[0]!.trim()}\`)`, basis: 'post' };
  const privateChat = Object.hasOwn(PRIVATE_CHAT_ID, m.app) ? PRIVATE_CHAT_ID[m.app]! : null;
  if (privateChat && values.every((v) => privateChat.test(v.trim())))
    return {
      audience: 'owner',
      why: `sends it to one fixed private chat (\`${values[0]!.trim()}\`): the bot owner's own chat`,
      basis: 'private-chat',
    };
  if (values.every(isPlaceholder))
    return {
      audience: 'owner',
      why: 'sends it to a placeholder recipient (a template slot or a masked export): no third party to judge',
      basis: 'placeholder',
    };
  if (send.channel === 'email' && values.every((v) => ownAddress(m, v)))
    return { audience: 'owner', why: "e-mails it to the connection's own address or domain", basis: 'own-address' };
  return {
    audience: 'owner',
    why: `sends it by ${channel} to a fixed recipient written in the scenario (\`${values[0]!.trim().slice(0, 60)}\`): the owner's or the team's`,
    basis: 'literal',
  };
}

/**
 * True when the trigger's channel identifies the sender of the message that starts the run: an
 * e-mail, a chat message or a ticket (`sources.ts` kinds). A custom webhook's payload and a form's
 * answers are written by whoever calls or fills them in, so a "sender" read there is data.
 */
function identifiedSender(analysis: Analysis): boolean {
  const first = analysis.first;
  if (!first) return false;
  const source = analysis.dataflow().sourceOf(first.id);
  return source !== null && IDENTIFIED_SENDER.has(source.kind) && source.untrusted;
}

/** Source kinds whose one submission starts a run and carries the submitter's own contact fields (`sources.ts`). */
const SUBMISSION: ReadonlySet<string> = new Set(['form', 'webhook']);

/**
 * True when reference `r` reads, directly or through transforms and variables, a field of the
 * trigger's own submission (a form row or a custom webhook's payload: one submission per run) that
 * holds an address (an e-mail or phone kind by its name, `pii.ts`): the submitter's own contact.
 */
function isSubmitterAddress(analysis: Analysis, r: FieldRef): boolean {
  const first = analysis.first;
  if (!first) return false;
  const source = analysis.dataflow().sourceOf(first.id);
  if (source === null || !SUBMISSION.has(source.kind)) return false;
  const ends = originRefs(analysis, r, 0);
  return ends.length > 0 && ends.every((e) => e.moduleId === first.id);
}

/**
 * True when reference `r` reads the identity of the sender of the trigger's message, directly or
 * through transforms and variables: for a chat trigger any field of it (the chat or user id the
 * platform authenticates), for an e-mail its sender fields (`from.address`, `replyTo`).
 */
function isTriggerSender(analysis: Analysis, r: FieldRef, chat: boolean): boolean {
  const first = analysis.first;
  if (!first || !identifiedSender(analysis)) return false;
  const source = analysis.dataflow().sourceOf(first.id)!;
  const ends = originRefs(analysis, r, 0);
  return (
    ends.length > 0 &&
    ends.every(
      (e) =>
        e.moduleId === first.id &&
        (source.kind === 'chat'
          ? chat || /(?:^|\.)(?:from|sender|author|user)/i.test(e.path)
          : MAIL_SENDER.test(e.path)),
    )
  );
}

/**
 * The references a value ultimately reads, followed back through transforms, flow modules and
 * variables (`{{4.to}}` of a Set variable whose value is `{{1.from.address}}` → `1.from.address`);
 * a reference to any other module ends there. Bounded depth.
 */
function originRefs(analysis: Analysis, r: FieldRef, depth: number): FieldRef[] {
  const m = analysis.graph.byId.get(r.moduleId);
  if (!m || depth > 8) return [r];
  const df = analysis.dataflow();
  if (SET_VARIABLES.has(m.type)) {
    const inner = variableRefs(m, r.path);
    return inner.length === 0 ? [r] : inner.flatMap((x) => originRefs(analysis, x, depth + 1));
  }
  const role = classify(m).role;
  if (role !== 'transform' && role !== 'flow') return [r];
  const refs = df.refsOf(m.id);
  return refs.length === 0 ? [r] : refs.flatMap((x) => originRefs(analysis, x, depth + 1));
}

/**
 * The literal a recipient mapping resolves to when every reference reads a variable set once to a
 * literal (a Set variable(s) value without `{{`, or a Get variable of such a variable), else `null`.
 */
function literalVariables(analysis: Analysis, refs: readonly FieldRef[]): string | null {
  let first: string | null = null;
  for (const r of refs) {
    const value = literalVariable(analysis, r);
    if (value === null) return null;
    first ??= value;
  }
  return first;
}

function literalVariable(analysis: Analysis, r: FieldRef): string | null {
  const m = analysis.graph.byId.get(r.moduleId);
  if (!m) return null;
  const name = head(r.path);
  if (SET_VARIABLES.has(m.type)) return variableValue(m, name) ?? null;
  if (!GET_VARIABLES.has(m.type)) return null;
  // Get variable reads what the Set variable modules of the scenario stored under that name: literal only when all are.
  let literal: string | null = null;
  for (const s of analysis.graph.modules) {
    if (!SET_VARIABLES.has(s.type)) continue;
    const v = variableValue(s, name);
    if (v === null) return null;
    if (v !== undefined) literal ??= v;
  }
  return literal;
}

/**
 * The literal value of variable `name` of a Set variable(s) module: the trimmed text when it maps no
 * data, `null` when it maps data (or is empty), `undefined` when the module sets no such variable.
 */
function variableValue(m: ModuleNode, name: string): string | null | undefined {
  for (const [n, v] of variableEntries(m)) {
    if (n !== name) continue;
    return typeof v === 'string' && !v.includes('{{') && v.trim() !== '' ? v.trim() : null;
  }
  return undefined;
}

/** The refs in the value of the variable a path reads (its head) in a Set variable(s) module. */
function variableRefs(m: ModuleNode, path: string): FieldRef[] {
  const name = head(path);
  for (const [n, v] of variableEntries(m)) if (n === name && typeof v === 'string') return extractRefs(v);
  return [];
}

/** `[name, value]` of each variable: `util:SetVariables` `variables[]`, `util:SetVariable(2)` `name`/`value`. */
function variableEntries(m: ModuleNode): [string, Json | undefined][] {
  const list = m.mapper?.['variables'];
  if (Array.isArray(list))
    return list.flatMap((v) =>
      v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v['name'] === 'string'
        ? [[v['name'], v['value']] as [string, Json | undefined]]
        : [],
    );
  const name = m.mapper?.['name'];
  return typeof name === 'string' ? [[name, m.mapper?.['value']]] : [];
}

/** First segment of a path, the variable name (`email`, ``` `Owner Email` ``` → `Owner Email`). */
function head(path: string): string {
  const i = path.search(/[.[]/);
  return (i < 0 ? path : path.slice(0, i)).replace(/`/g, '');
}

/**
 * A recipient slot left for the user of a template or masked in a shared export: a reserved example
 * domain (`YOUR_EMAIL@example.com`), `<REDACTED_EMAIL>`, `YOUR_CHAT_ID`, `[email]`.
 */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  const domain = /@([^@\s>]+)$/.exec(v)?.[1]?.toLowerCase();
  if (v.includes('{{')) return false;
  return (
    (domain !== undefined && RESERVED.test(domain)) || /^[<[{(].*[>\]})]$/.test(v) || /^(?:your|my)[_\s-]/i.test(v)
  );
}

/** String leaves of a recipient field: a string, an array of strings, or objects (`{ address }`). */
function strings(v: Json | undefined): string[] {
  if (typeof v === 'string') return v.trim() === '' ? [] : [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v !== null && typeof v === 'object') return Object.values(v).flatMap(strings);
  return [];
}

/** True when a literal address is the module's connection account, or shares its (non free-mail) domain. */
function ownAddress(m: ModuleNode, address: string): boolean {
  const own = connectionEmails(m);
  const want = address.trim().toLowerCase();
  const domain = want.split('@')[1] ?? '';
  return own.some((e) => e === want || (e.endsWith(`@${domain}`) && domain !== '' && !FREE_MAIL_DOMAINS.has(domain)));
}

/** E-mail addresses in the module's connection labels (`metadata.restore.parameters.*.label`), reserved domains left out. */
function connectionEmails(m: ModuleNode): string[] {
  const restore = m.metadata?.['restore'];
  const params =
    restore !== null && typeof restore === 'object' && !Array.isArray(restore) ? restore['parameters'] : undefined;
  if (params === null || typeof params !== 'object' || Array.isArray(params) || params === undefined) return [];
  const out: string[] = [];
  for (const p of Object.values(params)) {
    const label = p !== null && typeof p === 'object' && !Array.isArray(p) ? p['label'] : undefined;
    if (typeof label !== 'string') continue;
    for (const match of label.matchAll(EMAIL))
      if (!RESERVED.test(match[1]!.toLowerCase())) out.push(match[0].toLowerCase());
  }
  return out;
}
