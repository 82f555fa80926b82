/**
 * @module engine/secrets/patterns: well-known credential formats.
 * Each pattern is sticky (`y`) and tried only at token starts (see scan.ts); its body classes never
 * contain the token delimiters, so one try scans at most to the next delimiter: linear overall.
 * Formats: the providers' own documentation of their key prefixes and lengths (GitHub "About
 * authentication" token prefixes, Stripe API keys, Slack token types, AWS IAM unique-id prefixes,
 * Google API keys, Meta access tokens, OpenAI/Anthropic/Groq key prefixes, Supabase "Understanding API
 * keys": `sb_secret_` secret keys; gitleaks `supabase-service-key`: `sbp_` personal access tokens...).
 * Every format says where it ends (`ends`, issue 32): a token glued to the text after it
 * (`…<token>open&`) is cut at the format's own length or alphabet, never taken whole or dropped.
 */
import { boundedMemo } from '../memo.js';

/** One known secret format. `first` lists the characters a match can start with (dispatch table). */
export interface SecretPattern {
  readonly kind: string;
  readonly title: string;
  readonly re: RegExp;
  /** Every character a match can start with (the scanner only tries the pattern at those). */
  readonly first: string;
  /**
   * Where a match ends (issue 32, "secret shapes end at their own boundary"): `length`, the format's
   * documented length (what follows, even a glued word such as `…open&`, is not part of the secret;
   * a lookahead may only forbid the format's own alphabet, so that a longer run of it is not taken for
   * a key); or `alphabet`, formats of no fixed length, which end where their alphabet ends (a glued
   * character of that alphabet cannot be told apart and is taken in).
   */
  readonly ends: 'length' | 'alphabet';
  /** Shortest run of token characters (`[A-Za-z0-9_-]`) a match starts with (default 10). */
  readonly minRun?: number;
  /**
   * Literal prefixes a match starts with, checked with `startsWith` before the regex runs (most words
   * of a blueprint start with the same letters as some format; a prefix test is far cheaper than an
   * `exec`). Absent for formats without a literal prefix (Mailchimp, Telegram).
   */
  readonly prefixes?: readonly string[];
  /**
   * For formats without a literal prefix: a literal every match contains, and where the match would
   * start given the literal's offset (`-1` when it cannot): Mailchimp `…-us`, Telegram `…:AA`.
   */
  readonly anchor?: { readonly literal: string; start(s: string, at: number): number };
}

/** Table of known formats, most specific first (the first pattern matching at a position wins). */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    kind: 'private-key',
    ends: 'length',
    title: 'PEM private key',
    re: /-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----/y,
    first: '-',
    prefixes: ['-----BEGIN '],
  },
  {
    kind: 'aws-access-key-id',
    ends: 'length',
    title: 'AWS access key id',
    re: /(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![0-9A-Z])/y,
    first: 'A',
    prefixes: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
  },
  {
    kind: 'github-token',
    ends: 'alphabet',
    title: 'GitHub token',
    re: /gh[pousr]_[A-Za-z0-9]{36,251}/y,
    first: 'g',
    prefixes: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
  },
  {
    kind: 'github-fine-grained-pat',
    ends: 'length',
    title: 'GitHub fine-grained personal access token',
    re: /github_pat_[A-Za-z0-9_]{82}/y,
    first: 'g',
    prefixes: ['github_pat_'],
  },
  {
    kind: 'gitlab-token',
    ends: 'length',
    title: 'GitLab personal access token',
    re: /glpat-[A-Za-z0-9_-]{20}/y,
    first: 'g',
    prefixes: ['glpat-'],
  },
  {
    kind: 'slack-token',
    ends: 'alphabet',
    title: 'Slack token',
    re: /xox[abposre]-[A-Za-z0-9-]{10,250}/y,
    first: 'x',
    prefixes: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-', 'xoxr-', 'xoxe-'],
  },
  {
    kind: 'stripe-secret-key',
    ends: 'alphabet',
    title: 'Stripe secret or restricted key',
    re: /(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,250}/y,
    first: 'sr',
    prefixes: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'],
  },
  {
    kind: 'anthropic-api-key',
    ends: 'alphabet',
    title: 'Anthropic API key',
    re: /sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,120}/y,
    first: 's',
    prefixes: ['sk-ant-'],
  },
  {
    kind: 'openai-api-key',
    ends: 'alphabet',
    title: 'OpenAI API key',
    re: /sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,250}/y,
    first: 's',
    prefixes: ['sk-'],
  },
  {
    kind: 'groq-api-key',
    ends: 'length',
    title: 'Groq API key',
    re: /gsk_[A-Za-z0-9]{52}/y,
    first: 'g',
    prefixes: ['gsk_'],
  },
  {
    kind: 'huggingface-token',
    ends: 'length',
    title: 'Hugging Face token',
    re: /hf_[A-Za-z]{34}/y,
    first: 'h',
    prefixes: ['hf_'],
  },
  {
    kind: 'google-api-key',
    ends: 'length',
    title: 'Google API key',
    re: /AIza[0-9A-Za-z_-]{35}/y,
    first: 'A',
    prefixes: ['AIza'],
  },
  {
    kind: 'google-oauth-client-secret',
    ends: 'length',
    title: 'Google OAuth client secret',
    re: /GOCSPX-[A-Za-z0-9_-]{28}/y,
    first: 'G',
    prefixes: ['GOCSPX-'],
  },
  {
    kind: 'meta-graph-access-token',
    ends: 'alphabet',
    title: 'Meta (Facebook/Instagram/WhatsApp) Graph access token',
    re: /EAA[A-Za-z0-9]{90,400}/y,
    first: 'E',
    prefixes: ['EAA'],
  },
  {
    kind: 'sendgrid-api-key',
    ends: 'length',
    title: 'SendGrid API key',
    re: /SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}/y,
    first: 'S',
    minRun: 2,
    prefixes: ['SG.'],
  },
  {
    kind: 'mailgun-api-key',
    ends: 'length',
    title: 'Mailgun API key',
    re: /key-[0-9a-f]{32}(?![0-9a-f])/y,
    first: 'k',
    prefixes: ['key-'],
  },
  {
    kind: 'mailchimp-api-key',
    ends: 'length',
    title: 'Mailchimp API key',
    re: /[0-9a-f]{32}-us\d{1,2}(?!\d)/y,
    first: '0123456789abcdef',
    minRun: 36,
    anchor: { literal: '-us', start: (_s, at) => at - 32 },
  },
  {
    kind: 'twilio-api-key',
    ends: 'length',
    title: 'Twilio API key',
    re: /SK[0-9a-f]{32}(?![0-9a-f])/y,
    first: 'S',
    prefixes: ['SK'],
  },
  {
    kind: 'shopify-access-token',
    ends: 'length',
    title: 'Shopify access token',
    re: /shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}/y,
    first: 's',
    prefixes: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
  },
  {
    kind: 'airtable-pat',
    ends: 'length',
    title: 'Airtable personal access token',
    re: /pat[A-Za-z0-9]{14}\.[a-f0-9]{64}/y,
    first: 'p',
    prefixes: ['pat'],
  },
  {
    kind: 'notion-token',
    ends: 'length',
    title: 'Notion integration token',
    re: /(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{46})/y,
    first: 'sn',
    prefixes: ['secret_', 'ntn_'],
  },
  {
    kind: 'supabase-secret-key',
    ends: 'alphabet',
    title: 'Supabase secret key (bypasses Row Level Security)',
    re: /sb_secret_[A-Za-z0-9_-]{20,128}/y,
    first: 's',
    prefixes: ['sb_secret_'],
  },
  {
    kind: 'supabase-access-token',
    ends: 'length',
    title: 'Supabase personal access token',
    re: /sbp_[a-f0-9]{40}(?![a-f0-9])/y,
    first: 's',
    prefixes: ['sbp_'],
  },
  {
    kind: 'hubspot-private-app-token',
    ends: 'length',
    title: 'HubSpot private app token',
    re: /pat-(?:na|eu)\d-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}/y,
    first: 'p',
    prefixes: ['pat-na', 'pat-eu'],
  },
  {
    kind: 'npm-token',
    ends: 'length',
    title: 'npm access token',
    re: /npm_[A-Za-z0-9]{36}/y,
    first: 'n',
    prefixes: ['npm_'],
  },
  {
    kind: 'telegram-bot-token',
    ends: 'length',
    title: 'Telegram bot token',
    re: /\d{8,10}:AA[A-Za-z0-9_-]{33}/y,
    first: '0123456789',
    minRun: 8,
    anchor: { literal: ':AA', start: digitsBefore },
  },
  {
    kind: 'jwt',
    ends: 'alphabet',
    title: 'JSON Web Token',
    re: /eyJ[A-Za-z0-9_-]{10,4000}\.eyJ[A-Za-z0-9_-]{10,8000}\.[A-Za-z0-9_-]{10,2000}/y,
    first: 'e',
    prefixes: ['eyJ'],
  },
];

/** True for token characters `[A-Za-z0-9_-]` (char codes). */
export function isTokenChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
}

/**
 * The known format that matches at `i` of `s` (the first of SECRET_PATTERNS, literal prefixes checked
 * before the regex runs), and where its match ends; `run` is the length of the run of token characters
 * starting at `i` (measured when absent). Each try stops at the next delimiter: linear.
 */
export function matchKnownFormat(
  s: string,
  i: number,
  run?: number,
): { readonly pattern: SecretPattern; readonly end: number } | null {
  const code = s.charCodeAt(i);
  const candidates = code < 128 ? PATTERNS_BY_CODE[code] : undefined;
  if (candidates === undefined) return null;
  let length = run;
  if (length === undefined) {
    let e = i;
    while (e < s.length && isTokenChar(s.charCodeAt(e))) e++;
    length = e - i;
  }
  for (const p of candidates) {
    if (length < (p.minRun ?? 10) || (p.prefixes !== undefined && !hasPrefix(s, i, p.prefixes))) continue;
    p.re.lastIndex = i;
    const m = p.re.exec(s);
    if (m) return { pattern: p, end: i + m[0].length };
  }
  return null;
}

function hasPrefix(s: string, i: number, prefixes: readonly string[]): boolean {
  for (const x of prefixes) if (s.startsWith(x, i)) return true;
  return false;
}

/** Patterns by the char code (< 128) a match can start with (dispatch table built once). */
export const PATTERNS_BY_CODE: readonly (readonly SecretPattern[] | undefined)[] = (() => {
  const table: SecretPattern[][] = [];
  for (const p of SECRET_PATTERNS) for (const ch of p.first) (table[ch.charCodeAt(0)] ??= []).push(p);
  return Array.from({ length: 128 }, (_, c) => table[c]);
})();

/** Start of the 8-10 digits that end at `at` (a Telegram bot id before `:AA`), or -1. */
function digitsBefore(s: string, at: number): number {
  let i = at;
  while (i > 0 && at - i < 10 && s.charCodeAt(i - 1) >= 48 && s.charCodeAt(i - 1) <= 57) i--;
  return at - i >= 8 ? i : -1;
}

/**
 * Every literal a known format starts with or contains (prefixes, anchors), as one global regex of
 * literal alternatives: the native regex engine skips text that holds none of them far faster than
 * a character loop, and literal alternatives keep it linear.
 */
export const PATTERN_STARTS: RegExp = new RegExp(
  [...new Set(SECRET_PATTERNS.flatMap((p) => [...(p.prefixes ?? []), ...(p.anchor ? [p.anchor.literal] : [])]))]
    .map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
  'g',
);

/** Anchors by their literal (see SecretPattern.anchor). */
export const ANCHORS: ReadonlyMap<string, { start(s: string, at: number): number }> = new Map(
  SECRET_PATTERNS.flatMap((p) => (p.anchor ? [[p.anchor.literal, p.anchor] as const] : [])),
);

/** Shortest run of token characters worth trying per start char code (`Infinity` when no format starts with it). */
export const MIN_RUN_BY_CODE: readonly number[] = PATTERNS_BY_CODE.map((ps) =>
  ps ? Math.min(...ps.map((p) => p.minRun ?? 10)) : Infinity,
);

/**
 * Query-string and field names that carry credentials (OWASP "Information exposure through query
 * strings in URL"; CWE-598). Compared lower-case with `-`/`_`/spaces removed.
 */
export const CREDENTIAL_NAMES: ReadonlySet<string> = new Set([
  'auth',
  'authorization',
  'token',
  'accesstoken',
  'apikey',
  'key',
  'apitoken',
  'secret',
  'clientsecret',
  'password',
  'passwd',
  'pwd',
  'sig',
  'signature',
  'privatekey',
  'bearer',
  'sessiontoken',
  'refreshtoken',
  'xapikey',
  'apisecret',
  'appsecret',
  'authtoken',
  'xauthtoken',
  'sharedsecret',
  'webhooksecret',
  'securitytoken',
  'code',
  'pass',
  'credentials',
  'secretkey',
  'accesskey',
  'subscriptionkey',
  'ocpapimsubscriptionkey',
  'xfunctionskey',
  'authkey',
]);

/** Normalises a field name for CREDENTIAL_NAMES look-ups (`X-API-Key` → `xapikey`). */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[\s_-]/g, '');
}

/** How sure a field name alone makes us that its value is a credential. */
export type NameStrength = 'strong' | 'weak';

/** Generic names that are credentials only with a random-looking value (`key` of a record, `code` of an item). */
const WEAK_NAMES: ReadonlySet<string> = new Set(['auth', 'key', 'sig', 'signature', 'code']);
/** Names ending in `token` that carry no credential (pagination and sync cursors). */
const CURSOR_NAMES = /(?:page|next|continuation|sync|cursor|resume|delta)token$/;

/**
 * Strength of a field, header or query-parameter name as credential context (gitleaks `generic-api-key`
 * keywords: access, auth, api, credential, key, password, secret, token): `strong` for names that say
 * secret (`Authorization`, `x-api-key`, `ownerPassword`, `x-webhook-secret`, `Client-Token`, `API KEY`),
 * `weak` for generic ones (`key`, `auth`, `sig`, `code`), `null` otherwise.
 */
export const credentialStrength: (name: string) => NameStrength | null = boundedMemo(10_000, (name) =>
  computeStrength(name),
);

/**
 * Name endings that say secret (gitleaks `generic-api-key` keywords): `x-api-key`, `clientSecret`,
 * `x-auth-key`, `awsAccessKey`, `privateKey`, `ownerPassword`, `botToken`, `credentials`.
 */
const STRONG_SUFFIX = /(?:apikey|authkey|accesskey|secretkey|privatekey|secret|password|passwd|token|credentials?)$/;

function computeStrength(name: string): NameStrength | null {
  const n = normalizeName(name);
  if (n.length === 0 || n.length > 64) return null;
  if (WEAK_NAMES.has(n)) return 'weak';
  if (CURSOR_NAMES.test(n)) return null;
  return CREDENTIAL_NAMES.has(n) || STRONG_SUFFIX.test(n) ? 'strong' : null;
}

/** Strength of a field name (mapper key, header, pair name): as credentialStrength, but `code` is too generic for a field. */
export const fieldStrength: (name: string) => NameStrength | null = boundedMemo(10_000, (name) =>
  normalizeName(name) === 'code' ? null : credentialStrength(name),
);

/** True when a field name says it holds a credential (`Authorization`, `api_key`, `API KEY`, `clientSecret`); `code` excepted. */
export function isCredentialName(name: string): boolean {
  return fieldStrength(name) !== null;
}
