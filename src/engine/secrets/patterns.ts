/**
 * @module engine/secrets/patterns: well-known credential formats.
 * Each pattern is sticky (`y`) and tried only at token starts (see scan.ts); its body classes never
 * contain the token delimiters, so one try scans at most to the next delimiter: linear overall.
 * Formats: the providers' own documentation of their key prefixes and lengths (GitHub "About
 * authentication" token prefixes, Stripe API keys, Slack token types, AWS IAM unique-id prefixes,
 * Google API keys, Meta access tokens, OpenAI/Anthropic/Groq key prefixes...).
 */

/** One known secret format. `first` lists the characters a match can start with (dispatch table). */
export interface SecretPattern {
  readonly kind: string;
  readonly title: string;
  readonly re: RegExp;
  /** Every character a match can start with (the scanner only tries the pattern at those). */
  readonly first: string;
  /** Shortest run of token characters (`[A-Za-z0-9_-]`) a match starts with (default 10). */
  readonly minRun?: number;
}

/** Table of known formats, most specific first (the first pattern matching at a position wins). */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  { kind: 'private-key', title: 'PEM private key', re: /-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----/y , first: '-' },
  { kind: 'aws-access-key-id', title: 'AWS access key id', re: /(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![0-9A-Za-z])/y , first: 'A' },
  { kind: 'github-token', title: 'GitHub token', re: /gh[pousr]_[A-Za-z0-9]{36,251}/y , first: 'g' },
  { kind: 'github-fine-grained-pat', title: 'GitHub fine-grained personal access token', re: /github_pat_[A-Za-z0-9_]{82}/y , first: 'g' },
  { kind: 'gitlab-token', title: 'GitLab personal access token', re: /glpat-[A-Za-z0-9_-]{20}/y , first: 'g' },
  { kind: 'slack-token', title: 'Slack token', re: /xox[abposre]-[A-Za-z0-9-]{10,250}/y , first: 'x' },
  { kind: 'stripe-secret-key', title: 'Stripe secret or restricted key', re: /(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,250}/y , first: 'sr' },
  { kind: 'anthropic-api-key', title: 'Anthropic API key', re: /sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,120}/y , first: 's' },
  { kind: 'openai-api-key', title: 'OpenAI API key', re: /sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,250}/y , first: 's' },
  { kind: 'groq-api-key', title: 'Groq API key', re: /gsk_[A-Za-z0-9]{52}/y , first: 'g' },
  { kind: 'huggingface-token', title: 'Hugging Face token', re: /hf_[A-Za-z]{34}(?![A-Za-z])/y , first: 'h' },
  { kind: 'google-api-key', title: 'Google API key', re: /AIza[0-9A-Za-z_-]{35}/y , first: 'A' },
  { kind: 'google-oauth-client-secret', title: 'Google OAuth client secret', re: /GOCSPX-[A-Za-z0-9_-]{28}/y , first: 'G' },
  { kind: 'meta-graph-access-token', title: 'Meta (Facebook/Instagram/WhatsApp) Graph access token', re: /EAA[A-Za-z0-9]{90,400}/y , first: 'E' },
  { kind: 'sendgrid-api-key', title: 'SendGrid API key', re: /SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}/y , first: 'S', minRun: 2 },
  { kind: 'mailgun-api-key', title: 'Mailgun API key', re: /key-[0-9a-f]{32}(?![0-9a-z])/y , first: 'k' },
  { kind: 'mailchimp-api-key', title: 'Mailchimp API key', re: /[0-9a-f]{32}-us\d{1,2}(?!\d)/y , first: '0123456789abcdef' },
  { kind: 'twilio-api-key', title: 'Twilio API key', re: /SK[0-9a-f]{32}(?![0-9a-f])/y , first: 'S' },
  { kind: 'shopify-access-token', title: 'Shopify access token', re: /shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}/y , first: 's' },
  { kind: 'airtable-pat', title: 'Airtable personal access token', re: /pat[A-Za-z0-9]{14}\.[a-f0-9]{64}/y , first: 'p' },
  { kind: 'notion-token', title: 'Notion integration token', re: /(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{46})/y , first: 'sn' },
  { kind: 'hubspot-private-app-token', title: 'HubSpot private app token', re: /pat-(?:na|eu)\d-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}/y , first: 'p' },
  { kind: 'npm-token', title: 'npm access token', re: /npm_[A-Za-z0-9]{36}/y , first: 'n' },
  { kind: 'telegram-bot-token', title: 'Telegram bot token', re: /\d{8,10}:AA[A-Za-z0-9_-]{33}/y, first: '0123456789', minRun: 8 },
  { kind: 'jwt', title: 'JSON Web Token', re: /eyJ[A-Za-z0-9_-]{10,4000}\.eyJ[A-Za-z0-9_-]{10,8000}\.[A-Za-z0-9_-]{10,2000}/y , first: 'e' },
];

/** Patterns by the character a match can start with (dispatch table built once). */
export const PATTERNS_BY_FIRST: ReadonlyMap<string, readonly SecretPattern[]> = (() => {
  const map = new Map<string, SecretPattern[]>();
  for (const p of SECRET_PATTERNS) for (const ch of p.first) (map.get(ch) ?? map.set(ch, []).get(ch)!).push(p);
  return map;
})();

/**
 * Query-string and field names that carry credentials (OWASP "Information exposure through query
 * strings in URL"; CWE-598). Compared lower-case with `-`/`_`/spaces removed.
 */
export const CREDENTIAL_NAMES: ReadonlySet<string> = new Set([
  'auth', 'authorization', 'token', 'accesstoken', 'apikey', 'key', 'apitoken', 'secret', 'clientsecret', 'password', 'passwd',
  'pwd', 'sig', 'signature', 'privatekey', 'bearer', 'sessiontoken', 'refreshtoken', 'xapikey', 'apisecret', 'appsecret',
  'authtoken', 'xauthtoken', 'sharedsecret', 'webhooksecret', 'securitytoken', 'code', 'pass', 'credentials', 'secretkey',
  'accesskey', 'subscriptionkey', 'ocpapimsubscriptionkey', 'xfunctionskey', 'authkey',
]);

/** Normalises a field name for CREDENTIAL_NAMES look-ups (`X-API-Key` → `xapikey`). */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[\s_-]/g, '');
}

/** True when a field name says it holds a credential (`Authorization`, `api_key`, `API KEY`, `clientSecret`). */
export function isCredentialName(name: string): boolean {
  const n = normalizeName(name);
  if (n === 'code') return false; // too generic as a field name; kept for query strings only
  return CREDENTIAL_NAMES.has(n) || /(?:apikey|secret|password|token)$/.test(n);
}
