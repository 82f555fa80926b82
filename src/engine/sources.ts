/**
 * @module engine/sources: where a module's output comes from (issue 14, items 1 and 2). Some
 * modules produce personal data whatever their fields are called (an e-mail, a form submission, a
 * CRM contact, a chat message, a calendar event's attendees); some produce untrusted,
 * attacker-controllable input (webhooks, inbound mail and chat, public forms, support tickets, RSS
 * items, scraped pages). Tables, matched on the module's app and action as exported
 * (`app:Action`); each row names its source: the Make app (apps.make.com) and the corpus module ids
 * that show it.
 */
import type { ModuleNode } from './blueprint/types.js';
import type { PiiContext } from './pii.js';
import { classify, httpMethod, moduleUrl, urlHost } from './blueprint/classify.js';
import { boundedMemo } from './memo.js';
import { piiKind } from './pii.js';

/** What kind of source a module is. `record` is a company, deal, product or file record: its names are never a person's. */
export type SourceKind =
  'mail' | 'form' | 'contact' | 'chat' | 'calendar' | 'ticket' | 'feed' | 'web' | 'webhook' | 'record';

/** The facts a source gives its output. */
export interface ModuleSource {
  readonly kind: SourceKind;
  /**
   * Context of the module's whole output for `pii.ts`: `content` (everything it outputs is personal
   * data except ids, dates and flags), `person` (personal field names count: `name`, `from`),
   * `thing` (never a person's), `null` (only unambiguous names such as `email`, `first_name`).
   */
  readonly personal: PiiContext;
  /** Someone outside the organisation can choose the content (OWASP LLM01 prompt injection; CWE-20). */
  readonly untrusted: boolean;
  /**
   * Sent to the scenario by an outside party (webhook, e-mail, chat, form, ticket), as opposed to
   * third-party content the scenario fetches itself (a feed item, a web page). SSRF (SEC-6) needs an
   * inbound source; prompt injection (AI-2) does not.
   */
  readonly inbound: boolean;
  /** For reasons: "an incoming e-mail (`google-email:TriggerNewEmail`)". */
  readonly label: string;
}

type Facts = Omit<ModuleSource, 'kind' | 'label'> & { readonly what: string };

/** Per kind: personal context, untrusted, inbound, and what it is. */
const KIND_FACTS: Readonly<Record<SourceKind, Facts>> = {
  mail: { personal: 'content', untrusted: true, inbound: true, what: 'an incoming e-mail' },
  form: { personal: 'content', untrusted: true, inbound: true, what: 'a form submission' },
  contact: { personal: 'content', untrusted: false, inbound: false, what: 'a contact / lead record' },
  chat: { personal: 'content', untrusted: true, inbound: true, what: 'an inbound chat message' },
  calendar: { personal: 'person', untrusted: false, inbound: false, what: 'a calendar event' },
  ticket: { personal: 'content', untrusted: true, inbound: true, what: 'a support ticket' },
  feed: { personal: null, untrusted: true, inbound: false, what: 'a feed item' },
  web: { personal: null, untrusted: true, inbound: false, what: 'a fetched web page' },
  webhook: { personal: null, untrusted: true, inbound: true, what: 'a webhook payload' },
  record: { personal: 'thing', untrusted: false, inbound: false, what: 'a company, deal, product or file record' },
};

/** Actions that read or receive (`TriggerNewEmail`, `watchResponses`, `ActionGetEvents`, `GetUpdates`, `listEmailAttachments`). */
const READ = /^(?:action)?(?:trigger|watch|get|list|search|retrieve|iterate|read|fetch|find|download|new)/i;
const ANY = /./;

/**
 * Source rows: apps, the actions of them that are sources, and the kind. First match wins.
 * Sources: Make apps Email (IMAP), Gmail, Microsoft 365 Email (corpus `email:TriggerNewEmail`,
 * `google-email:TriggerNewEmail`, `triggerWatchNewEmails`, `listEmailAttachments`); Typeform,
 * Google Forms, Tally, Jotform and other form / survey / booking apps (corpus
 * `typeform:WatchEventsWithResponses`, `ListResponses`, `google-forms:watchResponses`,
 * `tally:watchNewResponse`); Telegram Bot, WhatsApp Business Cloud, Slack, Discord, Microsoft
 * Teams, Twilio and live-chat apps (corpus `telegram:GetUpdates`, `whatsapp-business-cloud:watchEvents`,
 * `getMedia`, `slack:GetPublicChannelMessage`, `SearchMessages`); Google Calendar / Microsoft 365
 * Calendar events (corpus `google-calendar:ActionGetEvents`); help-desk apps (Zendesk, Freshdesk,
 * Help Scout, Gorgias, Front, Intercom); RSS (corpus `rss:TriggerNewArticle`); scrapers (corpus
 * `apify:runActorNew`, `fetchDatasetItems`, `onesaas:scrapeHtmlFromWebsite`).
 */
const ROWS: readonly (readonly [apps: readonly string[], action: RegExp, kind: SourceKind])[] = [
  // An attachment is a document whose content the scenario cannot show; it is not judged by the mail it came with.
  [
    ['email', 'google-email', 'gmail', 'microsoft-email', 'microsoft365-email', 'outlook', 'imap', 'zoho-mail'],
    /attachment/i,
    'record',
  ],
  [
    ['email', 'google-email', 'gmail', 'microsoft-email', 'microsoft365-email', 'outlook', 'imap', 'zoho-mail'],
    READ,
    'mail',
  ],
  [
    [
      'typeform',
      'google-forms',
      'tally',
      'jotform',
      'wufoo',
      'cognito-forms',
      'formstack',
      'gravity-forms',
      'gravityforms',
      'surveymonkey',
      'paperform',
      'fillout',
      'microsoft-forms',
      'zoho-forms',
      'formsite',
      '123formbuilder',
      'wpforms',
      'fluent-forms',
      'ninja-forms',
      'contact-form-7',
      'formidable',
      'qualtrics',
      'surveysparrow',
      'getform',
      'formcarry',
      'calendly',
      'cal-com',
      'acuity-scheduling',
      'youcanbookme',
    ],
    READ,
    'form',
  ],
  [
    [
      'telegram',
      'whatsapp-business-cloud',
      'whatsapp',
      'whatsapp-business',
      'slack',
      'discord',
      'microsoft-teams',
      'google-chat',
      'twilio',
      'vonage',
      'messagebird',
      'facebook-messenger',
      'instagram-messenger',
      'line',
      'viber',
      'wati',
      'mattermost',
      'rocketchat',
      'crisp',
      'tawk-to',
      'livechat',
      'drift',
      'tidio',
      'manychat',
    ],
    /^(?:action)?(?:trigger|watch|get|list|search|retrieve|read|fetch|download|new).*(?:updat|messag|repl|thread|conversation|histor|event|sms|chat|media|mention|direct|comment|call)/i,
    'chat',
  ],
  [
    [
      'google-calendar',
      'microsoft365-calendar',
      'outlook-calendar',
      'microsoft-365-calendar',
      'icloud-calendar',
      'zoho-calendar',
    ],
    /^(?:action)?(?:trigger|watch|get|list|search|retrieve).*event/i,
    'calendar',
  ],
  [
    [
      'zendesk',
      'freshdesk',
      'help-scout',
      'helpscout',
      'gorgias',
      'front',
      'zoho-desk',
      'intercom',
      'freshservice',
      'groove',
      'kustomer',
      'jira-service-management',
    ],
    /^(?:action)?(?:trigger|watch|get|list|search|retrieve).*(?:ticket|conversation|messag|repl|comment|chat|case|thread)/i,
    'ticket',
  ],
  [['rss'], ANY, 'feed'],
  [
    [
      'apify',
      'browserless',
      'scrapingbee',
      'scraperapi',
      'firecrawl',
      'phantombuster',
      'browse-ai',
      'webscraping-ai',
      'zenrows',
      'diffbot',
      'serpapi',
    ],
    ANY,
    'web',
  ],
];

const BY_APP: ReadonlyMap<string, readonly (readonly [RegExp, SourceKind])[]> = (() => {
  const map = new Map<string, [RegExp, SourceKind][]>();
  for (const [apps, action, kind] of ROWS)
    for (const app of apps) map.set(app, [...(map.get(app) ?? []), [action, kind]]);
  return map;
})();

/** Actions of any app that receive a form submission (`webflow:watchFormSubmissions`, `hubspotcrm:watchFormSubmissions`). */
const FORM_ACTION = /form.?(?:submission|response|entr)|submissions?$/i;
/** Actions of any app that scrape a web page (corpus `onesaas:scrapeHtmlFromWebsite`). */
const SCRAPE_ACTION = /scrap|crawl/i;
/** Words of an action or object type naming a person record (`hubspotcrm:getContact`, `lemlist:getLeadbyIDorEmail`, `slack:GetUser`). */
const PERSON_NOUN =
  /contact|lead(?!er)|person(?!al)|people|customer|subscriber|attendee|invitee|applicant|candidate|patient|employee|(?<!re)member|guest|prospect|user/i;
/** Words naming a record that is not a person (`hubspotcrm:getCompany`, `getDeal`; corpus objectType `deals`). */
const THING_NOUN = /compan(?:y|ies)|organi[sz]ation|deal|product|repositor|project|line.?item/i;
/** Parameter / mapper keys that choose the object type of a generic CRM module (`hubspotcrm:WatchCRMObjects` `objectType`). */
const OBJECT_TYPE_KEYS: readonly string[] = [
  'objectType',
  'object',
  'sObject',
  'module',
  'entity',
  'recordType',
  'objectName',
];

/**
 * The sheet Google Forms writes its responses to, in the languages seen ("Form Responses 1",
 * corpus "Respostas ao formulário 1"; Google Forms help "Choose where to save form responses"):
 * its rows are form submissions.
 */
const FORM_RESPONSES_SHEET =
  /form(?:ular)? ?(?:responses|antworten|reacties)|respostas ao formul|respuestas (?:de|del|al) formulario|r[ée]ponses au formulaire|risposte (?:del|al) modulo/i;
const SHEET_APPS: ReadonlySet<string> = new Set(['google-sheets', 'microsoft365-excel']);

/** Hosts of scraping and search APIs: what they return is third-party web content (corpus `api.webscrapingapi.com`). */
const SCRAPER_HOSTS: readonly string[] = [
  'webscrapingapi.com',
  'scrapingbee.com',
  'scraperapi.com',
  'zenrows.com',
  'browserless.io',
  'firecrawl.dev',
  'r.jina.ai',
  'scrapingant.com',
  'scrapfly.io',
  'serpapi.com',
  'api.tavily.com',
];
/** A host or path that is an API rather than a page (`api.coingecko.com`, `/rest/v1/`, `.json`, Make webhooks). */
const API_HOST = /(?:^|[.-])api[.-]|api\.|\.googleapis\.com$|^hook\.|make\.com$|^graph\./;
const API_PATH = /\/(?:api|v\d+(?:\.\d+)?|rest|graphql|odata|services?|webhooks?|ajax)(?:[/?#]|$)|\.json(?:[?#]|$)/i;

function make(kind: SourceKind, m: ModuleNode, facts: Partial<Facts> = {}): ModuleSource {
  const base = KIND_FACTS[kind];
  return {
    kind,
    personal: facts.personal !== undefined ? facts.personal : base.personal,
    untrusted: facts.untrusted ?? base.untrusted,
    inbound: facts.inbound ?? base.inbound,
    label: `${facts.what ?? base.what} (\`${m.type}\`)`,
  };
}

/**
 * The source facts of a module, or `null` when it is not a source (its output is re-derived by
 * the data flow). `gateway:CustomWebHook` is judged without its references here; `webhookSource`
 * refines it from the shape of its payload.
 */
export function sourceOf(m: ModuleNode): ModuleSource | null {
  if (m.type === 'gateway:CustomMailHook') return make('mail', m, { what: 'an e-mail received by a mail hook' });
  if (m.type === 'gateway:CustomWebHook') return make('webhook', m);
  const cls = classify(m);
  if (cls.http) return httpSource(m);
  if (!cls.external || cls.ai) return null;
  const kind = kindOfType(m.type);
  if (kind !== null) return make(kind, m);
  if (SHEET_APPS.has(m.app) && READ.test(m.action) && FORM_RESPONSES_SHEET.test(sheetName(m))) {
    // A form that asks for nothing identifying (a rating and free-text feedback) is anonymous: only
    // personal field names count in it, not every answer (GDPR Recital 26: anonymous information).
    return make('form', m, {
      what: 'a form submission (a form responses sheet)',
      ...(asksForIdentity(m) === false ? { personal: 'person' as const } : {}),
    });
  }
  const objectType = objectTypeOf(m);
  if (objectType === '') return null;
  return PERSON_NOUN.test(objectType) ? make('contact', m) : THING_NOUN.test(objectType) ? make('record', m) : null;
}

/** The kind a module type (`app:Action`) alone makes a source of, `null` when it does not (memoised: types repeat). */
const kindOfType = boundedMemo<SourceKind | null>(10_000, (type) => {
  const colon = type.indexOf(':');
  if (colon < 0) return null;
  const app = type.slice(0, colon);
  const action = type.slice(colon + 1);
  for (const [re, kind] of BY_APP.get(app) ?? []) if (re.test(action)) return kind;
  if (FORM_ACTION.test(action)) return 'form';
  if (SCRAPE_ACTION.test(action)) return 'web';
  if (PERSON_NOUN.test(action)) return 'contact';
  if (THING_NOUN.test(action)) return 'record';
  return null;
});

/**
 * Column labels that ask who the respondent is: a name, an e-mail address, a phone number, a postal
 * address or an identity number, in the languages seen in the corpora (English, Portuguese,
 * Spanish, French, German, Italian).
 */
const IDENTIFYING_LABEL =
  /name|nome|nombre|\bnom\b|apellido|sobrenome|e-?mail|correo|phone|telefon|tel[ée]fono|celular|whats ?app|mobile|handy|address|endere[cç]o|direcci[oó]n|adresse|indirizzo|\bcpf\b|\bdni\b|\bnif\b|passport|contact|contato|contacto/i;

/**
 * Whether a spreadsheet module's columns (its exported `metadata.interface`, `0`, `1`... with their
 * header labels) ask for the respondent's identity; `null` when the export lists no columns.
 */
function asksForIdentity(m: ModuleNode): boolean | null {
  const spec = m.metadata?.['interface'];
  if (!Array.isArray(spec)) return null;
  let columns = 0;
  for (const f of spec) {
    if (!f || typeof f !== 'object' || Array.isArray(f) || typeof f['name'] !== 'string' || !/^\d+$/.test(f['name']))
      continue;
    columns++;
    if (typeof f['label'] === 'string' && IDENTIFYING_LABEL.test(f['label'])) return true;
  }
  return columns === 0 ? null : false;
}

function sheetName(m: ModuleNode): string {
  for (const section of [m.parameters, m.mapper]) {
    const v = section?.['sheetId'] ?? section?.['sheet'];
    if (typeof v === 'string') return v;
  }
  return '';
}

function objectTypeOf(m: ModuleNode): string {
  for (const section of [m.parameters, m.mapper]) {
    for (const key of OBJECT_TYPE_KEYS) {
      const v = section?.[key];
      if (typeof v === 'string') return v;
    }
  }
  return '';
}

/**
 * An HTTP GET is a fetched web page (untrusted, `web`) when its address is chosen at run time
 * (`{{...}}` in the host), when it calls a scraping API, or when it reads a literal page rather
 * than an API. A literal file download (`http:ActionGetFile` of a fixed URL) is the author's own
 * choice and not a source.
 */
function httpSource(m: ModuleNode): ModuleSource | null {
  const method = httpMethod(m);
  if (method !== 'GET' && method !== 'HEAD') return null;
  const url = moduleUrl(m);
  if (url === null || url.trim() === '') return null;
  const host = urlHost(url);
  if (host === null)
    return url.trimStart().startsWith('{{')
      ? make('web', m, { what: 'a web page whose address is chosen at run time' })
      : null;
  if (SCRAPER_HOSTS.some((h) => host === h || host.endsWith(`.${h}`)))
    return make('web', m, { what: 'a scraped web page' });
  if (/get\s*file|download/i.test(m.action)) return null;
  return API_HOST.test(host) || API_PATH.test(url) ? null : make('web', m);
}

/** Words of a webhook's label that name an inbound message (`Incoming-SMS`, `INBOUND_MESSAGE_ZAPI_TO_APP_HOOK`). */
const CHAT_LABEL =
  /\b(?:sms|whats ?app|telegram|messages?|inbound|incoming|conversations?|messenger|viber|twilio|vonage|z ?api)\b/i;
/** Words of a webhook's label that name a form or a lead (`Lux Home Leads`, `lead-intake-hook`). */
const FORM_LABEL =
  /\b(?:forms?|surveys?|leads?|sign ?ups?|registrations?|register|enquir(?:y|ies)|inquir(?:y|ies)|contact|bookings?|appointments?|applications?|applicants?|quote requests?|subscribe|typeform|tally|jotform|elementor|webflow|wpforms|gravity)\b/i;
/** Payload shapes of form webhooks: Typeform `form_response.answers`, Tally `data.fields[]`, Elementor `form_fields`, `submission`. */
const FORM_PATH =
  /(?:^|\.)(?:form_?response|answers|submission|form_?data|form_?fields)(?:[.[]|$)|(?:^|\.)data\.fields(?:[.[]|$)|(?:^|\.)fields\[\]/i;
/** The sender and the text of a message (Twilio `From`/`Body`, Vonage `from`/`text`, WhatsApp `messages[].from`/`text.body`, Z-API `phone`/`text.message`). */
const PARTY_LEAF = /^(?:from|sender|sendername|phone|chatid|waid|author|pushname)$/;
const TEXT_LEAF = /^(?:text|body|message|caption)$/;

/**
 * A custom webhook's source facts from the shape of its payload: always untrusted (anyone with the
 * URL can call it); personal `content` when it carries a message (its label, or a sender and a text
 * field) or a form (its label, or a form payload shape), `person` when its payload or data structure
 * names unambiguous personal fields (`email`, `first_name`), else only unambiguous names count.
 * @param paths Field paths other modules read from it (`data.fields[].value`, `From`).
 */
export function webhookSource(m: ModuleNode, paths: readonly string[]): ModuleSource {
  const label = `${hookLabel(m)} ${m.label ?? ''}`.replace(/[_-]+/g, ' ');
  const fields = [...paths, ...interfaceNames(m)];
  const leaves = new Set(fields.map((p) => (p.split('.').pop() ?? '').replace(/\[\]/g, '').toLowerCase()));
  const chat =
    CHAT_LABEL.test(label) ||
    ([...leaves].some((l) => PARTY_LEAF.test(l)) && [...leaves].some((l) => TEXT_LEAF.test(l)));
  if (chat) return make('webhook', m, { personal: 'content', what: 'an inbound message received by a webhook' });
  if (FORM_LABEL.test(label) || fields.some((p) => FORM_PATH.test(p)))
    return make('webhook', m, { personal: 'content', what: 'a form submission received by a webhook' });
  if (
    fields.some((p) => {
      const k = piiKind(p);
      return k !== null && k !== 'personal';
    })
  )
    return make('webhook', m, { personal: 'person', what: 'a webhook payload with personal fields' });
  return make('webhook', m);
}

/** The hook's label as Make exports it (`metadata.restore.parameters.hook.label`, old exports `metadata.restore.hook.label`). */
export function hookLabel(m: ModuleNode): string {
  const restore = m.metadata?.['restore'];
  if (!restore || typeof restore !== 'object' || Array.isArray(restore)) return '';
  const params = restore['parameters'];
  const fromParams = params && typeof params === 'object' && !Array.isArray(params) ? params['hook'] : undefined;
  for (const hook of [fromParams, restore['hook']]) {
    if (hook && typeof hook === 'object' && !Array.isArray(hook) && typeof hook['label'] === 'string')
      return hook['label'];
  }
  return '';
}

/** Top-level field names of the module's output data structure (`metadata.interface[].name`). */
export function interfaceNames(m: ModuleNode): string[] {
  const spec = m.metadata?.['interface'];
  if (!Array.isArray(spec)) return [];
  const out: string[] = [];
  for (const f of spec)
    if (f && typeof f === 'object' && !Array.isArray(f) && typeof f['name'] === 'string') out.push(f['name']);
  return out;
}
