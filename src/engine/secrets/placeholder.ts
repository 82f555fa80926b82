/**
 * @module engine/secrets/placeholder: values that look like secrets but are not: template placeholders
 * (never secrets, wherever they stand: header, query, URL path, text) and look-alikes (record ids,
 * file hashes, data URIs, Make and Google ids) rejected where the context is weak.
 * Sources: gitleaks `generic-api-key` allowlist practice (stopwords, placeholder values such as
 * `xxxx`, `changeme`, `<token>`); TruffleHog detectors' false-positive filters; corpus make-extra
 * MANIFEST category 4 (record UUIDs, Notion/Drive ids, data-store keys, placeholders).
 */
import { wholePlaceholder } from '../placeholders.js';

/**
 * Placeholder words and shapes, anywhere in the value (case-insensitive): `YOUR_API_KEY`,
 * `YourWebhookToken`, `PleaseReplaceWithYourWEBHOOK`, `<token>`, `[SUPABASE_ANON_KEY]`, `xxxx`,
 * `****`, `changeme`, `...here`. Each alternative is a literal or a bounded class, so the test is linear.
 */
const PLACEHOLDER_ANYWHERE =
  /your[\s_.-]?(?:api|key|token|secret|pass|webhook|hook|access|app|client|bot|own|id|instance|auth|account|organi[sz]ation|project|workspace|url|domain|connection|[a-z]{0,12}[\s_-]?(?:key|token|secret|id))|please[\s_-]?(?:replace|insert|enter|add|put|paste|set|change)|replace[\s_-]?(?:me|with|this)|insert[\s_-]?(?:your|here|key|token)|[\s_-]here$|x{4,}|X{4,}|\*{3,}|\.{3,}|…|placeholder|example|changeme|change[\s_-]me|dummy|redacted|sample|lorem|ipsum|fake[\s_-]?(?:key|token|secret)|todo|fixme|0123456789|123456789|abcdefgh|qwerty/i;

/** Whole-value placeholder shapes: `<token>`, `[KEY]`, `{KEY}`, `${KEY}`, `%KEY%`, `:token`, `your-...`. */
const PLACEHOLDER_WHOLE =
  /^(?:<.*>|\[.*\]|\{.*\}|\$\{.*\}|%.*%|:[a-z_]+|(?:your|my|insert|enter|replace|put|add|paste|set)[\s_-].*)$/i;

/** Values that are words, not secrets, in a credential slot. */
const NON_SECRET_WORDS: ReadonlySet<string> = new Set([
  'true',
  'false',
  'null',
  'undefined',
  'none',
  'bearer',
  'basic',
  'token',
  'password',
  'secret',
  'apikey',
  'api_key',
  'string',
  'text',
  'required',
  'optional',
  'hidden',
  'default',
  'empty',
  'test',
  'demo',
]);

/**
 * True for template placeholders: `YOUR_API_KEY`, `[SUPABASE_ANON_KEY]`, `<token>`, `xxxx`,
 * `PleaseReplaceWithYourWEBHOOK`, `changeme`, an environment-variable name (`SUPABASE_ANON_KEY`), a
 * run of one character, or fewer than 4 characters. A placeholder is never a secret (issue 14 item 8).
 */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v.length < 4) return true;
  if (v.length <= 4096 && (PLACEHOLDER_WHOLE.test(v) || PLACEHOLDER_ANYWHERE.test(v))) return true;
  if (wholePlaceholder(v) !== null) return true; // the template markers ARC-10 reports: one table for both
  if (/^[A-Z][A-Z_]{3,}$/.test(v)) return true; // an environment-variable name, not a value
  if (NON_SECRET_WORDS.has(v.toLowerCase())) return true;
  return isOneCharRun(v);
}

/** True when every character is the same (`00000000`, `aaaaaaaa`). */
function isOneCharRun(v: string): boolean {
  for (let i = 1; i < v.length; i++) if (v.charCodeAt(i) !== v.charCodeAt(0)) return false;
  return true;
}

/** True when the value contains a Make mapping expression (`{{...}}`), i.e. it is not a literal. */
export function isMapped(value: string): boolean {
  return value.includes('{{');
}

/**
 * Shapes of record and file identifiers that a weak context (a generic field name such as `key`, a
 * version segment of an API path) must not report: UUIDs (records, tenants, Notion data sources),
 * 32-hex ids without dashes (Notion pages and databases), Google Drive / Sheets / Docs file ids
 * (`1` + 32-43 base64url characters), base64 data URIs and images (`data:`, `/9j/` JPEG, `iVBOR` PNG),
 * Make's own numeric ids, Airtable record/base/table ids (`rec`/`app`/`tbl` + 14).
 * Strong contexts (a credential-named header, a `token=` query parameter, a `/token/` path segment)
 * ignore this list: a Browserless token is itself a UUID (make-extra MANIFEST, stdok).
 */
const LOOKALIKE =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}|1[A-Za-z0-9_-]{32,43}|data:.*|\/9j\/.*|iVBOR.*|\d+|(?:rec|app|tbl|fld|viw)[A-Za-z0-9]{14})$/i;

/** True for an identifier shape that is not a secret in a weak context (see LOOKALIKE). */
export function isLookalike(value: string): boolean {
  return value.length <= 4096 && LOOKALIKE.test(value);
}
