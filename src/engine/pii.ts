/**
 * @module engine/pii: personal data recognised by field name, judged in its context (GDPR Art. 4(1)
 * "personal data"; Art. 9 special categories; PCI DSS v4.0 cardholder data and sensitive
 * authentication data). A path is read from its last segment (the field) and its nearest named
 * ancestor (the object it belongs to): `customer.name` is a person's name, `repository.full_name`
 * is not (issue 14, items 10 and 13).
 */
import { boundedMemo } from './memo.js';

/**
 * Kinds of personal data recognised. `special` kinds are GDPR Art. 9 / PCI-scope data.
 * `personal` is personal data known by its source (an e-mail body, a form answer, a chat message)
 * rather than by a field name (see `sources.ts`).
 */
export type PiiKind =
  | 'email'
  | 'phone'
  | 'name'
  | 'address'
  | 'birth-date'
  | 'national-id'
  | 'card'
  | 'bank-account'
  | 'health'
  | 'tax'
  | 'cv'
  | 'ip-address'
  | 'personal';

/**
 * Kinds that need the strictest handling (issue 32, risk model `special-category`): GDPR Art. 9
 * special categories (health), national ids and identity documents, tax data, CVs (a career history,
 * often with a photo, age and nationality), and card and bank numbers (PCI DSS).
 */
export const SPECIAL_PII: ReadonlySet<PiiKind> = new Set([
  'national-id',
  'card',
  'health',
  'bank-account',
  'tax',
  'cv',
]);

/**
 * Kinds that identify the person on their own (GDPR Art. 4(1) "identified or identifiable"): a
 * name, a contact, an identifier, an address, a birth date, an identity or card number, a CV. Free
 * text a person wrote (`personal`), or a health answer, identifies them only with one of these or
 * in correspondence that carries their name (an e-mail; `risk/sensitivity.ts`).
 */
export const IDENTIFYING_PII: ReadonlySet<PiiKind> = new Set([
  'email',
  'phone',
  'name',
  'address',
  'birth-date',
  'national-id',
  'card',
  'bank-account',
  'tax',
  'cv',
  'ip-address',
]);

/** Readable names of the kinds, for reasons. */
export const PII_KIND_LABELS: Readonly<Record<PiiKind, string>> = {
  email: 'e-mail address',
  phone: 'phone number',
  name: 'name',
  address: 'postal address',
  'birth-date': 'birth date',
  'national-id': 'national id',
  card: 'payment card data',
  'bank-account': 'bank account',
  health: 'health data',
  tax: 'tax data',
  cv: 'CV',
  'ip-address': 'IP address',
  personal: 'personal data',
};

/**
 * The context a path is in, from its nearest named ancestor or, failing that, from its source module:
 * `person` (a contact, user, sender...), `content` (everything the source outputs is personal: an
 * e-mail, a form submission; see `sources.ts`), `thing` (a repository, product, company: its names
 * are not a person's), `card` / `bank` (payment data), or `null` (nothing known).
 */
export type PiiContext = 'person' | 'content' | 'thing' | 'card' | 'bank' | null;

/** What a field-name rule needs from the context: nothing, a person, or a payment card / bank account. */
type Need = 'any' | 'person' | 'card' | 'bank';

/**
 * Field-name rules over the normalised last segment (lower case, no separators, no `[]`); first match
 * wins. `any` rules name personal data unambiguously (`first_name`, `iban`); `person` rules only in a
 * personal context (`name`, `address`, `from`, `condition`); `card`/`bank` rules only under a card or
 * bank object (`card.number`). Field names ending in `id` are references, not the datum
 * (`phone_number_id`), except the identifiers listed here.
 * Sources: GDPR Art. 4(1) and Art. 9; PCI DSS v4.0 glossary (PAN, card verification code; an expiry
 * date alone, without the PAN, is not cardholder data); corpus field names (Gmail `fromName`,
 * `from.address`; Twilio `From`; WhatsApp `messages[].from`).
 */
const RULES: readonly (readonly [PiiKind, Need, RegExp])[] = [
  ['email', 'person', /^(?:address|addr)$/], // only reached for `from.address`-like parents, see PARTY
  ['email', 'any', /^(?:e?mail|emails|emailaddress(?:es)?|[a-z]*email(?:address)?\d?|mailaddress)$/],
  ['personal', 'person', /^(?:from|to|replyto|sender|recipients?|cc|bcc)$/], // the parties of a message: an address or number
  [
    'phone',
    'any',
    /^(?:(?:tele|mobile|cell|home|work|contact|customer|client|user|owner|billing|shipping|sender|recipient|from|to|primary|secondary|alt|alternate|other|business|office|personal|guest|lead|member|patient|main|direct|private|your|my)?phone(?:number|no|nr)?\d?|mobile(?:number)?|cellnumber|msisdn|whatsappnumber|telefono|telefone|telefon)$/,
  ], // not `iphone`, `microphone`, `display_phone_number` (a business line)
  ['phone', 'person', /^(?:tel|whatsapp|cell|waid)$/],
  [
    'name',
    'any',
    /^(?:first|last|full|given|family|middle|sur|customer|contact|client|person|sender|recipient|from|to|replyto|patient|employee|applicant|candidate|lead|member|guest|attendee|owner|author|billing|shipping)name$|^(?:firstname|lastname|fullname|surname|surnames|nombre|apellidos?|nombrecompleto|nom|prenom|vorname|nachname)$/,
  ],
  ['name', 'person', /^(?:name|displayname|username|realname|nickname|pushname|sendername|profilename)$/],
  [
    'address',
    'any',
    /^(?:streetaddress|billingaddress|shippingaddress|homeaddress|mailingaddress|postaladdress|addressline\d?|postcode|postalcode|zipcode|direccion)$/,
  ],
  ['address', 'person', /^(?:address\d?|street|city|zip|town|fromzip|fromcity)$/],
  ['birth-date', 'any', /^(?:dob|dateofbirth|birthdate|birthday|fechadenacimiento)$/],
  ['birth-date', 'person', /^(?:birth|born)$/],
  [
    'national-id',
    'any',
    /^(?:ssn|socialsecuritynumber|nationalid|nationalidnumber|nationalidentifier|passport|passportnumber|passportscan|passportphoto|passportcopy|driverslicense|driverslicensenumber|driverlicense|driverslicence|drivinglicence|cpf|curp|pesel|dni|nie|aadhaar|aadhar|pancard|personalidnumber|idcardnumber|idcard|identitycard|identitydocument|iddocument|idproof|proofofidentity|governmentid|nationalidcard|idfront|idback)$/,
  ],
  [
    'tax',
    'any',
    /^(?:taxreturn|taxreturns|taxdocument|taxdocuments|taxform|taxforms|incometax|taxstatement|taxassessment|w2|w2form|w9|w9form|form1040|form1099|itr|steuererklaerung|steuerbescheid|declaracionderenta|irpf|avisdimposition)$/,
  ],
  ['tax', 'person', /^(?:tax|taxes|taxinfo|taxdetails|taxdata)$/],
  [
    'cv',
    'any',
    /^(?:curriculumvitae|lebenslauf|cvurl|cvlink|cvfile|cvtext|cvpdf|cvupload|resumeurl|resumelink|resumefile|resumetext|resumepdf|resumeupload|curriculo|hojadevida)$/,
  ],
  // `resume` is also French and Portuguese for a summary (`résumé`, `resumo`): only a person's.
  // A person's skills, work history and education are what a CV holds.
  [
    'cv',
    'person',
    /^(?:cv|cvs|resume|resumes|curriculum|skills|topskills|workexperience|employmenthistory|workhistory|careerhistory|education|qualifications)$/,
  ],
  ['national-id', 'person', /^(?:taxid|nif|tin|personalid|idnumber|personnummer|steuerid)$/],
  [
    'card',
    'any',
    /^(?:cardnumber|creditcardnumber|creditcard|ccnumber|cardpan|cardcvc|cardcvv|cvv|cvc|cvv2|cvc2|cardsecuritycode)$/,
  ],
  ['card', 'card', /^(?:number|pan|securitycode|cvn)$/],
  ['bank-account', 'any', /^(?:iban|bankaccount|bankaccountnumber|routingnumber|sortcode)$/],
  ['bank-account', 'bank', /^(?:accountnumber|number|account)$/],
  [
    'health',
    'any',
    /^(?:diagnosis|diagnoses|medicalrecord|medicalrecordnumber|medicalhistory|medication|medications|prescription|prescriptions|healthdata|healthrecord|patientid|allergies|bloodtype|bloodgroup|symptoms|medicalcondition|medicalconditions|healthcondition|healthconditions|disability|disabilities)$/,
  ],
  ['health', 'person', /^(?:condition|conditions|treatment|treatments|medical|health|illness|pregnancy)$/],
  ['ip-address', 'any', /^(?:ipaddress|clientip|remoteip|userip|ipv4|ipv6|xforwardedfor)$/],
  ['ip-address', 'person', /^(?:ip)$/],
];

/** Parents that make `address` an e-mail address (`from.address`, Gmail and IMAP sender objects). */
const PARTY = /^(?:from|to|sender|recipients?|replyto|cc|bcc|organizer|creator)$/;

/** Named ancestors that make a path personal (a contact, a user, a sender). Matched exactly or, for the prefixes, at the start. */
const PERSON_SEGMENT =
  /^(?:contacts?|customers?|clients?|users?|senders?|from|to|recipients?|replyto|cc|bcc|authors?|owners?|organizers?|creators?|attendees?|invitees?|members?|participants?|leads?|persons?|people|profiles?|applicants?|candidates?|patients?|employees?|guests?|buyers?|payers?|cardholders?|submitters?|respondents?|students?|subscribers?|assignees?|reporters?|requesters?|prospects?|fromuser|touser|shipping|billing|shippingaddress|billingaddress|personal[a-z]*|customer[a-z]+|contact[a-z]+|user[a-z]*info|patient[a-z]+)$/;
/** Named ancestors that are things, whose names and addresses are not a person's (item 10: `repository.full_name`). */
const THING_SEGMENT =
  /^(?:repositor(?:y|ies)|repos?|projects?|files?|folders?|documents?|products?|variants?|companies|company|organi[sz]ations?|orgs?|teams?|channels?|workspaces?|boards?|databases?|sheets?|spreadsheets?|templates?|blueprints?|tasks?|issuetype|pipelines?|stages?|deals?|brands?|stores?|shops?|merchants?|sites?|domains?|tags?|categor(?:y|ies)|collections?|playlists?|videos?|forms?|surveys?|definitions?|metadata|attachments?|banks?|wallets?|coins?|tokens?|assets?|calendars?|venues?|jobs?|articles?|feeds?|weather|forecasts?|plans?|prices?|packages?|apps?|bots?|devices?|businesses|business)$/;
const CARD_SEGMENT = /^(?:card|cards|creditcard|paymentcard|cardinfo|carddetails|carddata)$/;
const BANK_SEGMENT = /^(?:bank|bankaccount|bankdetails|bankinfo|banking|payout|payouts|sepa|ach|sepadebit|debitor)$/;

/**
 * Fields of a `content` source that are not personal: references, timestamps, states, sizes, flags
 * (`id`, `threadId`, `internalDate`, `labelIds`, `sizeEstimate`, `status`). A field ending in `id`
 * is a reference to a record, not the record's content.
 */
const TECHNICAL =
  /^(?:id|ids|uid|uuid|guid|[a-z0-9]*(?:id|ids|sid|key|cursor|etag|offset|date|time|timestamp|status|state|type|kind|size|count|version|index|number|code)|[a-z]+edat|sentat|[a-z]*reference|messagingproduct|ts|created|updated|modified|deleted|archived|labels?|labelids|folders?|flags?|attachments?|seen|unread|starred|important|draft|spam|trash|page|limit|total|sizeestimate|priority|mimetype|historyid|encoding|charset|boundary|object|event|eventtype|imtlength|imtindex)$/;

/**
 * Names of the free text a person writes (a message, a note, a subject): personal data inside a
 * personal context, as the content of a person's message (item 1).
 */
const CONTENT =
  /^(?:message|messages|text|body|html|textplain|texthtml|content|contents|snippet|subject|comment|comments|note|notes|remarks|answer|answers|response|responses|value|values|question|questions|request|details|description|transcript|caption|bio)$/;

/**
 * Field names of a thing rather than of the person (issue 32, "taint follows fields"): a company, a
 * product, a topic, a website. In a personal source they are not the person's data, and a field so
 * named read from a module that carries personal data (a row, a bundle) is not charged with it.
 */
const THING_LEAF =
  /^(?:company|companyname|companies|organi[sz]ation|organi[sz]ationname|org|orgname|business|businessname|brand|brandname|industry|sector|niche|topic|topics|theme|keyword|keywords|product|productname|products|service|services|website|websiteurl|url|domain|category|categories|sku|price|currency|amount|quantity|language|locale|country|timezone|hashtags?)$/;

/** True when a field path names a thing (`company`, `topic`, `website`), not a person's datum (`THING_LEAF`). Memoised. */
export const isThingField: (path: string) => boolean = boundedMemo(50_000, (path) => {
  const segments = path.split('.');
  return THING_LEAF.test(normalise(segments[segments.length - 1] ?? ''));
});

/** Lower case, no separators, no `[]` or backticks. */
function normalise(segment: string): string {
  return segment
    .replace(/\[\]/g, '')
    .toLowerCase()
    .replace(/[\s_\-`]/g, '');
}

/** The context a segment gives, or `null` when it says nothing. */
function segmentContext(n: string): Exclude<PiiContext, 'content' | null> | null {
  if (CARD_SEGMENT.test(n)) return 'card';
  if (BANK_SEGMENT.test(n)) return 'bank';
  if (PERSON_SEGMENT.test(n)) return 'person';
  if (THING_SEGMENT.test(n)) return 'thing';
  return null;
}

/**
 * The kind of personal data a field path names in a context, or `null`.
 * `customer.email` → `email`; `name` → `null` (no context); `contact.name` → `name`;
 * `repository.full_name` → `null`; `pickup.expiry` → `null`; `card.number` → `card`;
 * with `root = 'content'`, any non-technical field (`text`, `data.fields[].value`) → `personal`.
 * Memoised; linear in the path length.
 * @param path Field path as in a mapping (`items[].email`, `from.address`).
 * @param root Context of the module the path is read from (`sources.ts`), `null` when unknown.
 */
export function piiKind(path: string, root: PiiContext = null): PiiKind | null {
  return root === null
    ? memoNone(path)
    : root === 'content'
      ? memoContent(path)
      : root === 'person'
        ? memoPerson(path)
        : computePiiKind(path, root);
}

/**
 * True when a field path names a reference or a technical attribute (`id`, `call.id`, `status`,
 * `created_at`), not content: such a field of a module whose output carries personal data (an AI
 * answer about a person, a transform of a contact) does not carry it (TECHNICAL). Memoised.
 */
export const isTechnicalField: (path: string) => boolean = boundedMemo(50_000, (path) => {
  const segments = path.split('.');
  return TECHNICAL.test(normalise(segments[segments.length - 1] ?? ''));
});

const memoNone = boundedMemo(50_000, (path) => computePiiKind(path, null));
const memoContent = boundedMemo(50_000, (path) => computePiiKind(path, 'content'));
const memoPerson = boundedMemo(50_000, (path) => computePiiKind(path, 'person'));

function computePiiKind(path: string, root: PiiContext): PiiKind | null {
  const segments = path.split('.');
  const leaf = normalise(segments[segments.length - 1] ?? '');
  if (leaf === '') return null;
  let ctx: PiiContext = null;
  let parent = '';
  for (let i = segments.length - 2; i >= 0; i--) {
    const n = normalise(segments[i]!);
    if (n === '' || /^\d+$/.test(n)) continue;
    if (parent === '') parent = n;
    ctx = segmentContext(n);
    if (ctx !== null) break;
  }
  ctx ??= root;
  if (ctx === 'thing') return null;
  const personal = ctx === 'person' || ctx === 'content' || ctx === 'card' || ctx === 'bank';
  for (const [kind, need, re] of RULES) {
    if (!re.test(leaf)) continue;
    if (kind === 'email' && need === 'person') {
      if (PARTY.test(parent)) return 'email';
      continue;
    }
    if (need === 'any' || (need === 'person' && personal) || need === ctx) return kind;
  }
  if (ctx === 'content') return TECHNICAL.test(leaf) || THING_LEAF.test(leaf) ? null : 'personal';
  if (personal && CONTENT.test(leaf)) return 'personal';
  return null;
}

/**
 * Words of a question or column title that ask about a person's health (GDPR Art. 4(15) "data
 * concerning health": physical or mental health, including care received), in the languages of the
 * corpora (English, Spanish, Portuguese, French, German, Italian), matched on whole words without
 * accents: *¿Tienes algún tratamiento en curso?* (corpus make
 * `sergibuendia-clinica-dental-presupuestos-automatizados`), *Any allergies or medication?*. Not
 * `condition` (terms and conditions), `dental` or `insurance` alone (a product, not a person's health).
 */
const HEALTH_TOPIC =
  /\b(?:health|medical|medicines?|medications?|diagnos[a-z]*|symptoms?|treatments?|illness(?:es)?|diseases?|allerg[a-z]*|pregnan[a-z]*|disabilit[a-z]*|prescriptions?|therap[a-z]*|surger[a-z]*|injur[a-z]*|salud|medic[oa]s?|medicament[a-z]*|medicacion(?:es)?|sintomas?|tratamientos?|enfermedad(?:es)?|embaraz[a-z]*|discapacidad(?:es)?|cirugias?|lesion(?:es)?|saude|tratamentos?|doencas?|gravidez|sante|traitements?|maladies?|grossesse|gesundheit[a-z]*|medizin[a-z]*|medikament[a-z]*|diagnose[a-z]*|behandlung(?:en)?|krankheit(?:en)?|schwanger[a-z]*|behinderung(?:en)?|salute|trattament[io]|malatti[ae]|gravidanza|farmac[a-z]*)\b/;

/**
 * True when a question or column title asks about the respondent's health (`HEALTH_TOPIC`), so its
 * answer is health data (GDPR Art. 9). Linear in the title's length; titles over 300 characters are
 * not read.
 */
export function asksAboutHealth(title: string): boolean {
  return titleKind(title) === 'health';
}

/**
 * Words of a question or column title that ask for a CV (*Upload your resume*, *Curriculum*,
 * *Lebenslauf*), an identity document (*Passport*, *ID card*, *driver's licence*, *DNI*), or tax data
 * (*tax return*, *W-2*, *Steuererklärung*, *declaración de la renta*), in the corpora's languages,
 * whole words without accents.
 */
const CV_TOPIC = /\b(?:cv|resumes?|curriculum(?: vitae)?|lebenslauf|curriculo|hoja de vida)\b/;
const ID_TOPIC =
  /\b(?:passports?|id cards?|identity (?:cards?|documents?)|national id|driver'?s? licen[cs]es?|driving licen[cs]es?|dni|nie|cpf|aadhaa?r|ausweis|personalausweis|carte d'identite|documento de identidad|pasaporte|social security number|ssn)\b/;
const TAX_TOPIC =
  /\b(?:tax returns?|tax documents?|tax forms?|income tax|w-?2|w-?9|1099|steuererklarung|steuerbescheid|declaracion de (?:la )?renta|irpf|avis d'imposition|imposto de renda)\b/;

/**
 * Words of a question or column title that ask who the respondent is (*What's your full name?*,
 * *Your e-mail*, *Telefone*, *Dirección*), in the corpora's languages, whole words without accents;
 * checked in that order, so *E-mail address* is an e-mail address.
 */
const TITLE_IDENTIFIES: readonly (readonly [PiiKind, RegExp])[] = [
  ['email', /\b(?:e-?mails?|correo(?: electronico)?|courriel|e-?mail address)\b/],
  [
    'phone',
    /\b(?:phone|telephone|mobile|cell|whats ?app|telefono|telefone|telefon|celular|handy|numero de contacto)\b/,
  ],
  [
    'name',
    /\b(?:(?:full |first |last |sur|given |family )?names?|nome|nombres?|apellidos?|sobrenome|prenom|vorname|nachname)\b/,
  ],
  [
    'address',
    /\b(?:(?:home |postal |street |mailing )?address|endereco|direccion|adresse|indirizzo|postcode|zip code)\b/,
  ],
];
/** Words of a title that ask about a thing rather than the person (*What topic do you want posts about?*, *Company*, *Which service?*). */
const TITLE_THING =
  /\b(?:topics?|subjects?|themes?|ideas?|keywords?|niche|industry|sector|company|companies|business|brand|products?|services?|website|url|domain|category|categories|tema|temas|assunto|sujet|thema|empresa|entreprise|unternehmen)\b/;

function foldTitle(title: string): string {
  return title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/**
 * What a question or column title says its answers are: an identifying kind when it asks who the
 * respondent is (`What's your full name?` → `name`), `thing` when it asks about a topic, a company
 * or a product (`What topic do you want posts about?`), else `null` (the answer is judged as the
 * respondent's free text). Titles over 300 characters are not read.
 */
export function titleSays(title: string): PiiKind | 'thing' | null {
  if (title.length > 300) return null;
  const t = foldTitle(title);
  for (const [kind, re] of TITLE_IDENTIFIES) if (re.test(t)) return kind;
  return TITLE_THING.test(t) ? 'thing' : null;
}

/** The parties of a message (`from`, `sender`, `to`, `replyTo`, Twilio `From`, WhatsApp `wa_id`): an address or a number that identifies a person. */
const PARTY_FIELD =
  /^(?:from|to|replyto|sender|recipients?|cc|bcc|waid|fromnumber|sendernumber|pushname|sendername|fromname|username)$/;

/** True when a field path names a party of a message (`1.From`, `messages[].from`, `from.address`): an identifier, not free text. */
export const isPartyField: (path: string) => boolean = boundedMemo(50_000, (path) => {
  const segments = path.split('.');
  const leaf = normalise(segments[segments.length - 1] ?? '');
  const parent = normalise(segments[segments.length - 2] ?? '');
  return PARTY_FIELD.test(leaf) || (PARTY.test(parent) && /^(?:address|name|email|phone|number)$/.test(leaf));
});

/**
 * The special kind a question or column title asks for (`health`, `cv`, `national-id`, `tax`), or
 * `null`; the answer to such a question is that kind of data (issue 32: "health, tax, identity and
 * CV data"). Linear in the title's length; titles over 300 characters are not read.
 */
export function titleKind(title: string): 'health' | 'cv' | 'national-id' | 'tax' | null {
  if (title.length > 300) return null;
  const t = foldTitle(title);
  if (HEALTH_TOPIC.test(t)) return 'health';
  if (CV_TOPIC.test(t)) return 'cv';
  if (ID_TOPIC.test(t)) return 'national-id';
  if (TAX_TOPIC.test(t)) return 'tax';
  return null;
}

const LOCAL_CHAR = /[A-Za-z0-9._%+-]/;
const DOMAIN_CHAR = /[A-Za-z0-9.-]/;
/** Documentation and test domains (RFC 2606 / RFC 6761) are not anyone's personal data. */
const RESERVED_DOMAIN = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost)$/i;

/**
 * Literal e-mail addresses in `text`, found from each `@` outwards (linear time, no regex
 * backtracking). Mapped values (`{{1.email}}`) and reserved example domains are skipped.
 * @returns `[start, end)` offsets of each address.
 */
export function findEmails(text: string): [number, number][] {
  const out: [number, number][] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf('@', from);
    if (at < 0) break;
    let start = at;
    while (start > 0 && at - start < 64 && LOCAL_CHAR.test(text[start - 1]!)) start--;
    let end = at + 1;
    while (end < text.length && end - at < 254 && DOMAIN_CHAR.test(text[end]!)) end++;
    while (end > at + 1 && text[end - 1] === '.') end--;
    const domain = text.slice(at + 1, end);
    if (start < at && /\.[A-Za-z]{2,24}$/.test(domain) && !RESERVED_DOMAIN.test(domain)) out.push([start, end]);
    from = Math.max(end, at + 1);
  }
  return out;
}
