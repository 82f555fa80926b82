/**
 * @module engine/policies/ai/audience: who receives what a module delivers (AI-1, AI-4), and which
 * modules only put AI output before a person (AI-6).
 * Decided from the module table (`classify().send`: channel, recipient keys, to-self, reply) and the
 * recipients' values. Acceptance set: make-extra MANIFEST category 3 (sent unreviewed vs draft,
 * reviewed post, answer returned to the asker, internal-only).
 */
import type { Analysis } from '../../analysis.js';
import type { Json, ModuleNode } from '../../blueprint/types.js';
import { classify } from '../../blueprint/classify.js';
import { appChannel } from '../../blueprint/module-table.js';
import { extractRefs } from '../../blueprint/expressions.js';
import { FREE_MAIL_DOMAINS } from '../../hosts/mail-domains.js';

/**
 * `public`: a published post. `third-party`: people outside the team (recipients taken from the
 * data, a reply to an e-mail or SMS sender, an AI-written message to a fixed outside address).
 * `asker`: the person who wrote to a chat bot, or the caller of a webhook, gets the answer.
 * `internal`: the owner or the team (a Slack channel, the connection's own account, one fixed
 * private Telegram chat, a notification that quotes AI output under a label such as `Summary:`).
 */
export type Audience = 'public' | 'third-party' | 'asker' | 'internal';

/** Who receives a delivery, and why (the finding's reason). */
export interface Delivery {
  readonly audience: Audience;
  readonly why: string;
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
/** Trigger kinds that deliver one inbound message per run (a chat bot's question, a webhook call). */
const INBOUND = new Set(['webhook', 'mailhook', 'app-instant']);
/**
 * Chat apps whose literal recipient id shows a private chat with one user. Telegram Bot API: a
 * private chat's id is the user's id, a positive integer; groups have negative ids, supergroups and
 * channels `-100…`, public channels `@name`. A bot can write privately only to a user who started it,
 * and a scenario that fixes one such id writes to the person who set it up (the builder reads their
 * own id from the bot's updates): the owner's own account, like "Send me an e-mail".
 */
const PRIVATE_CHAT_ID: Readonly<Record<string, RegExp>> = { telegram: /^[1-9]\d{0,15}$/ };
/**
 * Literal status values that stage a record for a person's review or approval (English, Spanish,
 * French, German, Portuguese): `Pending Review`, `Pendiente de aprobación`, `À valider`, `Draft`.
 */
const REVIEW_STATUS =
  /^(?:(?:pending|awaiting|needs?|to|for|ready for|waiting for|in|under)[\s_-]+(?:human[\s_-]+)?(?:review|approval|validation)|to[\s_-]+(?:approve|review|validate)|draft|borrador|brouillon|entwurf|rascunho|pendiente de (?:aprobaci[oó]n|revisi[oó]n)|por (?:revisar|aprobar)|pendente de (?:aprova[cç][aã]o|revis[aã]o)|en attente de (?:validation|relecture)|à (?:valider|relire)|zur (?:prüfung|freigabe)|zu prüfen)$/iu;

/**
 * The audience of a module that delivers AI output, or `null` when the module delivers
 * nothing to people (a record, a draft, a document; an app whose channel the table does not know).
 * @param aiPointers JSON Pointers of the module's fields that carry AI output (a notification quotes it under a label).
 */
export function deliveryOf(analysis: Analysis, m: ModuleNode, aiPointers: readonly string[]): Delivery | null {
  const cls = classify(m);
  if (cls.effect === 'respond') return { audience: 'asker', why: 'returns it to the caller of the webhook' };
  const send = cls.send;
  if (!send || send.channel === null) return null;
  if (send.channel === 'post') return { audience: 'public', why: 'publishes it' };
  if (send.toSelf) return { audience: 'internal', why: "sends it to the connection's own account" };
  // Slack and Teams stay inside the owner's workspace, whoever the channel or user is.
  if (send.channel === 'team-chat') return { audience: 'internal', why: "posts it in the team's own workspace" };
  const values = send.recipients.flatMap((k) => strings(m.mapper?.[k]));
  const chat = send.channel === 'chat';
  if (values.length === 0 && send.reply) {
    return chat
      ? { audience: 'asker', why: 'answers the person who wrote' }
      : { audience: 'third-party', why: `replies by ${CHANNEL_NAMES[send.channel]} to the sender of a message` };
  }
  const mapped = values.filter((v) => v.includes('{{'));
  if (mapped.length > 0) {
    if (chat && repliesToTrigger(analysis, mapped))
      return { audience: 'asker', why: 'answers the person who wrote to the chat' };
    return {
      audience: 'third-party',
      why: `sends it by ${CHANNEL_NAMES[send.channel]} to recipients taken from the data (\`${mapped[0]!.slice(0, 60)}\`)`,
    };
  }
  const privateChat = Object.hasOwn(PRIVATE_CHAT_ID, m.app) ? PRIVATE_CHAT_ID[m.app]! : null;
  if (chat && privateChat && values.length > 0 && values.every((v) => privateChat.test(v.trim()))) {
    return {
      audience: 'internal',
      why: `sends it to one fixed private chat (\`${values[0]!.trim()}\`): the bot owner's own chat`,
    };
  }
  if (values.length > 0 && values.every(isPlaceholder))
    return {
      audience: 'internal',
      why: 'sends it to a placeholder address (a template slot or a masked export): no third party to judge',
    };
  if (send.channel === 'email' && values.length > 0 && values.every((v) => ownAddress(m, v)))
    return { audience: 'internal', why: "e-mails it to the connection's own address or domain" };
  if (aiPointers.length > 0 && aiPointers.every((p) => labelledInField(analysis, m, p)))
    return { audience: 'internal', why: 'quotes it under a label in a notification to a fixed recipient' };
  return {
    audience: 'third-party',
    why: `sends it as the whole message by ${CHANNEL_NAMES[send.channel]} to a fixed recipient${values[0] ? ` (\`${values[0].slice(0, 60)}\`)` : ''} not shown to be the owner`,
  };
}

/**
 * Modules that only put AI output before a person who reviews it, with the reason: a delivery to the
 * owner or the team (`deliveryOf` audience `internal`), a draft (module table `draft`: a Gmail draft,
 * a Contentful entry), a record written with a literal review status (`Pending Review`), and a record
 * such a review record links by id (`{{28.id}}`: the draft it asks a person to review). AI-6 does
 * not count these as acting on the output. Computed once per evaluation over the string index.
 * @returns module id → why it is a review step.
 */
export function reviewSteps(analysis: Analysis): Map<string, string> {
  const steps = new Map<string, string>();
  const df = analysis.dataflow();
  for (const leaf of analysis.strings()) {
    const m = leaf.module;
    if (
      leaf.section !== 'mapper' ||
      leaf.value.length > 48 ||
      steps.has(m.id) ||
      leaf.value.includes('{{') ||
      !REVIEW_STATUS.test(leaf.value.trim()) ||
      classify(m).effect !== 'write'
    )
      continue;
    steps.set(m.id, `writes a record marked \`${leaf.value.trim().slice(0, 40)}\` for a person to review`);
    for (const r of df.refsOf(m.id)) {
      const linked = analysis.graph.byId.get(r.moduleId);
      if (r.path === 'id' && linked && classify(linked).effect === 'write' && !steps.has(linked.id))
        steps.set(linked.id, `writes a record that review record ${m.id} links for a person to review`);
    }
  }
  for (const m of analysis.graph.modules)
    if (classify(m).draft) steps.set(m.id, 'saves a draft for a person to send or publish');
  return steps;
}

/**
 * Why a module that takes AI output only puts it before a person (see `reviewSteps`), or `null`
 * when it acts on it (a write, a delivery to outsiders, a request, code).
 */
export function reviewStepOf(
  analysis: Analysis,
  steps: ReadonlyMap<string, string>,
  m: ModuleNode,
  aiPointers: readonly string[],
): string | null {
  const step = steps.get(m.id);
  if (step) return step;
  const delivery = deliveryOf(analysis, m, aiPointers);
  return delivery?.audience === 'internal' ? delivery.why : null;
}

/**
 * A recipient slot left for the user of a template or masked in a shared export: a reserved example
 * domain (`YOUR_EMAIL@example.com`), `<REDACTED_EMAIL>`, `YOUR_CHAT_ID`, `[email]`.
 */
function isPlaceholder(value: string): boolean {
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

/** True when every mapped recipient comes from the inbound trigger (directly or through transforms). */
function repliesToTrigger(analysis: Analysis, mapped: readonly string[]): boolean {
  const first = analysis.first;
  if (!first) return false;
  const inbound = INBOUND.has(analysis.trigger) || ['chat', 'team-chat'].includes(appChannel(first.app) ?? '');
  if (!inbound) return false;
  const refs = mapped.flatMap((v) => extractRefs(v));
  return refs.length > 0 && refs.every((r) => derivesFrom(analysis, r.moduleId, first.id, 0));
}

function derivesFrom(analysis: Analysis, id: string, target: string, depth: number): boolean {
  if (id === target) return true;
  const m = analysis.graph.byId.get(id);
  if (!m || depth > 8) return false;
  const role = classify(m).role;
  if (role !== 'transform' && role !== 'flow') return false;
  const refs = analysis.dataflow().refsOf(id);
  return refs.length > 0 && refs.every((r) => derivesFrom(analysis, r.moduleId, target, depth + 1));
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

/**
 * True when every AI value in the field at `pointer` follows a label (`Summary: {{3.result}}`,
 * `*Intent:* {{4.intent}}`): the message is a notification that quotes AI output, not a message
 * written by the AI.
 */
function labelledInField(analysis: Analysis, m: ModuleNode, pointer: string): boolean {
  const leaf = analysis.strings().find((l) => l.module === m && l.pointer === pointer);
  if (!leaf) return false;
  const df = analysis.dataflow();
  const text = leaf.value;
  let sawAi = false;
  for (let from = 0; ;) {
    const open = text.indexOf('{{', from);
    if (open < 0) break;
    const close = text.indexOf('}}', open + 2);
    const end = close < 0 ? text.length : close + 2;
    const ai = extractRefs(text.slice(open, end)).some((r) => isOutput(r.path) && df.isAiDerived(r.moduleId));
    if (ai) {
      sawAi = true;
      if (!/[:：]$/.test(text.slice(0, open).replace(/[\s*_~>]+$/, ''))) return false;
    }
    from = end;
  }
  return sawAi;
}

/** False for `error.*` paths: in an error route, `{{7.error.message}}` is the failure of module 7, not its output. */
export function isOutput(path: string): boolean {
  return path !== 'error' && !path.startsWith('error.');
}
