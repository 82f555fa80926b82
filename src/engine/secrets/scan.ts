/**
 * @module engine/secrets/scan: finds hard-coded credentials in one string, in linear time.
 * Three detectors: known formats (patterns.ts) tried at token starts; URLs (basic-auth user info,
 * credential-named query parameters, webhook URLs whose path is the secret); and literal values of
 * credential-named fields, judged by entropy. Mapped values (`{{3.token}}`) and placeholders
 * (`Bearer YOUR_API_KEY`, `[SUPABASE_ANON_KEY]`) are never reported.
 */
import { PATTERNS_BY_FIRST, isCredentialName, normalizeName, CREDENTIAL_NAMES } from './patterns.js';
import { wholePlaceholder } from '../placeholders.js';

/** One credential found in a string. `start`/`end` are UTF-16 offsets of the secret itself. */
export interface SecretFinding {
  readonly kind: string;
  readonly title: string;
  readonly start: number;
  readonly end: number;
}

/** Longest string scanned (bytes beyond are ignored): 1 MiB, the request body cap's order of size. */
export const MAX_SCAN_LENGTH = 1 << 20;
/** Minimum Shannon entropy (bits per character) for an unknown-format value in a credential field. */
export const MIN_ENTROPY_BITS = 3.0;
/** Minimum length of an unknown-format credential value. */
export const MIN_SECRET_LENGTH = 12;


/** Make webhook URL hosts: `hook.<zone>.make.com`, Celonis-era and Integromat zones (FORMAT.md). */
const MAKE_HOOK_HOST = /^hook\.[a-z0-9-]{2,20}\.(?:make\.com|make\.celonis\.com|integromat\.com)$/;

/**
 * Scans `text` for credentials. `fieldName` is the name the value is stored under (mapper key, or the
 * `name` of a `{name, value}` pair such as an HTTP header), used by the credential-field detector.
 * @returns findings sorted by start offset, without overlaps.
 */
export function scanForSecrets(text: string, fieldName: string | null): SecretFinding[] {
  const s = text.length > MAX_SCAN_LENGTH ? text.slice(0, MAX_SCAN_LENGTH) : text;
  const findings: SecretFinding[] = [];
  const urlSpans = s.includes('://') ? scanUrls(s, findings) : [];
  scanPatterns(s, urlSpans, findings);
  if (fieldName !== null && isCredentialName(fieldName) && findings.length === 0) scanCredentialField(s, findings);
  findings.sort((a, b) => a.start - b.start);
  return findings.filter((f, i) => i === 0 || f.start >= findings[i - 1]!.end);
}

/** Shannon entropy of `s` in bits per character. */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const PLACEHOLDER = /^(?:your|my|insert|enter|replace|put|add|paste|set)[\s_-]|(?:_|\s)here$|x{4,}|\*{3,}|placeholder|example|changeme|change_me|dummy|redacted|sample|lorem|^<.*>$|^\[.*\]$|^\{.*\}$|^\$\{.*\}$|^%.*%$/i;

/** True for template placeholders (`YOUR_API_KEY`, `[SUPABASE_ANON_KEY]`, `<token>`, `xxxx`, `SUPABASE_ANON_KEY`). */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v.length < 4) return true;
  if (PLACEHOLDER.test(v)) return true;
  if (wholePlaceholder(v) !== null) return true; // the template markers ARC-10 reports (`PleaseReplaceWithYourKey`): one table for both
  if (/^[A-Z][A-Z_]{3,}$/.test(v)) return true; // an environment-variable name, not a value
  return /^(.)\1+$/.test(v); // one repeated character
}

/** True when the value contains a Make mapping expression (`{{...}}`), i.e. it is not a literal. */
export function isMapped(value: string): boolean {
  return value.includes('{{');
}

/** True for token characters `[A-Za-z0-9_-]` (char codes). */
function isTokenChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
}

/**
 * Tries the known formats at the start of every run of token characters outside URLs (each
 * pattern only where the run is long enough to hold its first part), so prose and JSON text cost
 * one pass of character-code checks.
 */
function scanPatterns(s: string, urlSpans: readonly (readonly [number, number])[], out: SecretFinding[]): void {
  let span = 0;
  let i = 0;
  while (i < s.length) {
    if (!isTokenChar(s.charCodeAt(i))) { i++; continue; }
    let end = i + 1;
    while (end < s.length && isTokenChar(s.charCodeAt(end))) end++;
    const run = end - i;
    while (span < urlSpans.length && urlSpans[span]![1] <= i) span++;
    const inUrl = span < urlSpans.length && urlSpans[span]![0] <= i;
    const candidates = inUrl || run < 2 ? undefined : PATTERNS_BY_FIRST.get(s[i]!);
    let next = end;
    if (candidates) {
      for (const p of candidates) {
        if (run < (p.minRun ?? 10)) continue;
        p.re.lastIndex = i;
        const m = p.re.exec(s);
        if (m) {
          if (!isPlaceholder(m[0])) out.push({ kind: p.kind, title: p.title, start: i, end: i + m[0].length });
          next = Math.max(end, i + m[0].length);
          break;
        }
      }
    }
    i = next;
  }
}

function isSchemeChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 45 || c === 46;
}

/** Whitespace, quotes, `<`, `>`, `|`, backslash, backtick end a URL. */
function isUrlEnd(c: number): boolean {
  return c <= 32 || c === 34 || c === 39 || c === 60 || c === 62 || c === 124 || c === 92 || c === 96;
}

/** Finds URLs by their `://` (indexOf, linear) and checks their user info, host, path and query. */
function scanUrls(s: string, out: SecretFinding[]): [number, number][] {
  const spans: [number, number][] = [];
  let from = 0;
  for (;;) {
    const sep = s.indexOf('://', from);
    if (sep < 0) break;
    let start = sep;
    while (start > 0 && sep - start < 16 && isSchemeChar(s.charCodeAt(start - 1))) start--;
    let end = sep + 3;
    while (end < s.length && !isUrlEnd(s.charCodeAt(end))) end++;
    if (start < sep) {
      spans.push([start, end]);
      checkUrl(s, sep + 3, end, out);
    }
    from = end;
  }
  return spans;
}

function checkUrl(s: string, authorityStart: number, end: number, out: SecretFinding[]): void {
  let authorityEnd = authorityStart;
  while (authorityEnd < end && !'/?#'.includes(s[authorityEnd]!)) authorityEnd++;
  const authority = s.slice(authorityStart, authorityEnd);
  const at = authority.lastIndexOf('@');
  if (at > 0) {
    const colon = authority.indexOf(':');
    if (colon > 0 && colon < at) {
      const password = authority.slice(colon + 1, at);
      if (!isMapped(password) && !isPlaceholder(password)) {
        const pStart = authorityStart + colon + 1;
        out.push({ kind: 'url-basic-auth', title: 'Password in URL user info', start: pStart, end: pStart + password.length });
      }
    }
  }
  const host = authority.slice(at + 1).replace(/:\d+$/, '').toLowerCase();
  let pathEnd = authorityEnd;
  while (pathEnd < end && s[pathEnd] !== '?' && s[pathEnd] !== '#') pathEnd++;
  const path = s.slice(authorityEnd, pathEnd);
  const pathSecret = webhookPathSecret(host, path);
  if (pathSecret) {
    out.push({ kind: pathSecret.kind, title: pathSecret.title, start: authorityEnd + pathSecret.offset, end: authorityEnd + pathSecret.offset + pathSecret.length });
  }
  if (s[pathEnd] === '?') checkQuery(s, pathEnd + 1, end, out);
}

/** URLs whose path itself is the credential: Make, Slack, Discord, Telegram, Zapier webhooks. */
function webhookPathSecret(host: string, path: string): { kind: string; title: string; offset: number; length: number } | null {
  let m: RegExpExecArray | null;
  if (MAKE_HOOK_HOST.test(host) && (m = /^\/([a-z0-9]{32})(?![a-z0-9])/.exec(path))) {
    return { kind: 'make-webhook-url-token', title: 'Make webhook URL (the path is the credential)', offset: 1, length: m[1]!.length };
  }
  if (host === 'hooks.slack.com' && (m = /^\/(?:services|workflows|triggers)\/([A-Za-z0-9_/-]{20,200})/.exec(path))) {
    return { kind: 'slack-webhook-url', title: 'Slack incoming webhook URL', offset: path.indexOf(m[1]!), length: m[1]!.length };
  }
  if (/^(?:ptb\.|canary\.)?discord(?:app)?\.com$/.test(host) && (m = /^\/api\/webhooks\/\d{5,30}\/([A-Za-z0-9_-]{20,100})/.exec(path))) {
    return { kind: 'discord-webhook-url', title: 'Discord webhook URL', offset: path.indexOf(m[1]!), length: m[1]!.length };
  }
  if (host === 'api.telegram.org' && (m = /^\/(?:file\/)?bot(\d{6,12}:[A-Za-z0-9_-]{30,40})/.exec(path))) {
    return { kind: 'telegram-bot-token', title: 'Telegram bot token in URL', offset: path.indexOf(m[1]!), length: m[1]!.length };
  }
  if (host === 'hooks.zapier.com' && (m = /^\/hooks\/catch\/(\d{3,12}\/[a-z0-9]{5,12})/.exec(path))) {
    return { kind: 'zapier-webhook-url', title: 'Zapier webhook URL', offset: path.indexOf(m[1]!), length: m[1]!.length };
  }
  return null;
}

function checkQuery(s: string, from: number, end: number, out: SecretFinding[]): void {
  let hash = s.indexOf('#', from);
  if (hash < 0 || hash > end) hash = end;
  let i = from;
  while (i < hash) {
    let amp = s.indexOf('&', i);
    if (amp < 0 || amp > hash) amp = hash;
    const eq = s.indexOf('=', i);
    if (eq > i && eq < amp) {
      const name = normalizeName(safeDecode(s.slice(i, eq)));
      const value = s.slice(eq + 1, amp);
      if (CREDENTIAL_NAMES.has(name) && value.length >= 8 && !isMapped(value) && !isPlaceholder(value)) {
        out.push({ kind: 'url-query-credential', title: `Credential in URL query parameter "${name}"`, start: eq + 1, end: amp });
      }
    }
    i = amp + 1;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A literal in a credential-named field: `Bearer abc...`, `Basic ...`, or a bare high-entropy value. */
function scanCredentialField(s: string, out: SecretFinding[]): void {
  if (isMapped(s)) return;
  const m = /^\s*(?:(?:bearer|basic|token|apikey|api-key|key)\s+)?/i.exec(s);
  const offset = m ? m[0].length : 0;
  const value = s.slice(offset).trim();
  if (value.length < MIN_SECRET_LENGTH || /\s/.test(value) || isPlaceholder(value)) return;
  if (shannonEntropy(value) < MIN_ENTROPY_BITS) return;
  out.push({ kind: 'credential-field', title: 'Literal value in a credential field', start: offset, end: offset + value.length });
}

/**
 * Replaces every finding in `text` by `<first 4 chars>…[REDACTED n chars]` and truncates the result
 * to 200 characters, so evidence never carries a usable secret.
 */
export function redact(text: string, findings: readonly SecretFinding[]): string {
  let outText = '';
  let at = 0;
  for (const f of findings) {
    outText += text.slice(at, f.start) + `${text.slice(f.start, f.start + Math.min(4, Math.floor((f.end - f.start) / 4)))}…[REDACTED ${f.end - f.start} chars]`;
    at = f.end;
  }
  outText += text.slice(at);
  return outText.length > 200 ? `${outText.slice(0, 199)}…` : outText;
}
