/**
 * @module engine/secrets/scan: finds hard-coded credentials in one string, in linear time.
 * Detectors, most specific first: known formats (patterns.ts) tried at token starts; URLs (urls.ts:
 * basic-auth user info, credential query parameters, paths that are the credential, path segments
 * after a credential keyword); context in free text (context.ts: credential-named assignments and
 * pairs, `Bearer` schemes, browser cookie exports); and the literal value of a credential-named field
 * (header, mapper key, `{name, value}` pair), judged by name strength, length and entropy.
 * Mapped values (`{{3.token}}`) and placeholders (`Bearer YOUR_API_KEY`, `[SUPABASE_ANON_KEY]`) are
 * never reported (placeholder.ts); a key public by design (a Supabase anon JWT, a Stripe `pk_live_`
 * key) is reported as a `publishable-key` (publishable.ts), whichever detector found it.
 */
import type { SecretFinding } from './types.js';
import { ANCHORS, MIN_RUN_BY_CODE, PATTERN_STARTS, fieldStrength, isTokenChar, matchKnownFormat } from './patterns.js';
import { isLookalike, isMapped, isPlaceholder } from './placeholder.js';
import { scanUrls } from './urls.js';
import { COOKIE_FIELDS, scanContext, scanCookieHeader } from './context.js';
import { shannonEntropy } from './entropy.js';
import { privilegedJwtTitle, publishableKey } from './publishable.js';

export type { SecretFinding } from './types.js';
export { isMapped, isPlaceholder, isLookalike } from './placeholder.js';
export { shannonEntropy } from './entropy.js';

/** Longest string scanned (bytes beyond are ignored): 1 MiB, the request body cap's order of size. */
export const MAX_SCAN_LENGTH = 1 << 20;
/** Minimum Shannon entropy (bits per character) of an unknown-format value in a generic credential field (`key`, `auth`). */
export const MIN_ENTROPY_BITS = 3.0;
/** Minimum length of an unknown-format value in a generic credential field. */
export const MIN_SECRET_LENGTH = 12;
/**
 * A field named as a secret (`password`, `x-webhook-secret`, `Client-Token`, `Authorization`) holds a
 * credential by its name: any literal of at least this length, without whitespace, that is not a
 * placeholder, whatever its entropy (a human-chosen shared secret is still a secret).
 */
export const MIN_NAMED_SECRET_LENGTH = 8;
/** ...except values this repetitive (bits per character: `aaaabbbb` scores 1.0), which are fillers. */
export const MIN_NAMED_ENTROPY_BITS = 2.0;

/**
 * Scans `text` for credentials. `fieldName` is the name the value is stored under (mapper key, or the
 * `name` of a `{name, value}` pair such as an HTTP header), used by the credential-field detector.
 * @returns findings sorted by start offset, without overlaps.
 */
export function scanForSecrets(text: string, fieldName: string | null): SecretFinding[] {
  return [...withFieldContext(text, scanText(text), fieldName)];
}

const NONE: readonly SecretFinding[] = Object.freeze([]);
/**
 * What every text detector needs to find first: a `:` or `=` (URLs, assignments, Telegram), the
 * `Bearer` scheme, or a literal a known format starts with or contains. One native test per string.
 */
const ANY_DETECTOR = new RegExp(`[:=]|earer|${PATTERN_STARTS.source}`);
const NO_SPANS: readonly (readonly [number, number])[] = Object.freeze([]);

/**
 * The detectors that read the text alone (known formats, URLs, context in text), without the field
 * name: a blueprint repeats most strings (labels, help texts, option lists), so callers may cache
 * this per distinct value and add the field context with `withFieldContext`.
 */
export function scanText(text: string): readonly SecretFinding[] {
  const s = text.length > MAX_SCAN_LENGTH ? text.slice(0, MAX_SCAN_LENGTH) : text;
  // Most strings (labels, help texts, option values) hold no URL, separator, scheme or format start.
  if (!ANY_DETECTOR.test(s)) return NONE;
  const findings: SecretFinding[] = [];
  const urlSpans = s.includes('://') ? scanUrls(s, findings) : NO_SPANS;
  scanPatterns(s, urlSpans, findings);
  if (s.includes(':') || s.includes('=') || s.includes('earer')) scanContext(s, urlSpans, findings);
  if (findings.length === 0) return NONE;
  return refine(s, findings.length === 1 ? findings : withoutOverlaps(findings));
}

/** Findings by start offset, each overlapping an earlier one dropped. */
function withoutOverlaps(findings: SecretFinding[]): SecretFinding[] {
  findings.sort((a, b) => a.start - b.start || b.end - a.end);
  let end = 0;
  return findings.filter((f) => (f.start >= end ? ((end = f.end), true) : false));
}

/**
 * What each found token says about itself (publishable.ts): a publishable key (a Supabase anon JWT, a
 * Stripe `pk_live_` key...) becomes a `publishable-key` finding, whatever detector found it; a JWT
 * whose claims name a privileged role (Supabase `service_role`) gets a title that says so.
 */
function refine(s: string, findings: SecretFinding[]): SecretFinding[] {
  for (let k = 0; k < findings.length; k++) {
    const f = findings[k]!;
    const value = s.slice(f.start, f.end);
    const publishable = publishableKey(value);
    if (publishable) findings[k] = { ...f, kind: 'publishable-key', title: publishable.title };
    else if (f.kind === 'jwt') {
      const title = privilegedJwtTitle(value);
      if (title !== null) findings[k] = { ...f, title };
    }
  }
  return findings;
}

/**
 * `textFindings` of `text`, or when there are none and `fieldName` names a credential, the
 * credential-field detector's finding. A `Cookie` header adds its session cookies to the text's
 * findings (scanCookieHeader).
 */
export function withFieldContext(
  text: string,
  textFindings: readonly SecretFinding[],
  fieldName: string | null,
): readonly SecretFinding[] {
  if (fieldName === null) return textFindings;
  if (COOKIE_FIELDS.has(fieldName.toLowerCase())) {
    const cookies: SecretFinding[] = [];
    scanCookieHeader(text.length > MAX_SCAN_LENGTH ? text.slice(0, MAX_SCAN_LENGTH) : text, cookies);
    if (cookies.length > 0) return withoutOverlaps([...textFindings, ...cookies]);
  }
  if (textFindings.length > 0) return textFindings;
  const strength = fieldStrength(fieldName);
  if (strength === null) return NONE;
  const findings: SecretFinding[] = [];
  const s = text.length > MAX_SCAN_LENGTH ? text.slice(0, MAX_SCAN_LENGTH) : text;
  scanCredentialField(s, strength, findings);
  return findings.length === 0 ? NONE : refine(s, findings);
}

/**
 * Tries the known formats where one can start (PATTERN_STARTS, one native regex pass) and only at
 * the start of a run of token characters outside URLs, each pattern only where the run is long
 * enough to hold it. Each run is measured once and skipped after its try: linear.
 */
function scanPatterns(s: string, urlSpans: readonly (readonly [number, number])[], out: SecretFinding[]): void {
  if (s.length < 10) return;
  const starts = PATTERN_STARTS;
  starts.lastIndex = 0;
  let done = 0; // findings and tried runs end here; later candidates start after it
  for (let m = starts.exec(s); m !== null; m = starts.exec(s)) {
    const anchor = ANCHORS.get(m[0]);
    const i = anchor ? anchor.start(s, m.index) : m.index;
    starts.lastIndex = m.index + 1;
    if (i < done || (i > 0 && isTokenChar(s.charCodeAt(i - 1)))) continue; // not at the start of a run
    let end = i + 1;
    while (end < s.length && isTokenChar(s.charCodeAt(end))) end++;
    const run = end - i;
    done = end;
    if (run < MIN_RUN_BY_CODE[s.charCodeAt(i)]! || inSpans(urlSpans, i)) continue;
    const match = matchKnownFormat(s, i, run);
    if (match) {
      if (!isPlaceholder(s.slice(i, match.end)))
        out.push({ kind: match.pattern.kind, title: match.pattern.title, start: i, end: match.end });
      done = Math.max(end, match.end);
    }
    starts.lastIndex = Math.max(starts.lastIndex, done);
  }
}

/** True when `i` is inside one of the sorted, disjoint spans (binary search). */
function inSpans(spans: readonly (readonly [number, number])[], i: number): boolean {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid]![1] <= i) lo = mid + 1;
    else if (spans[mid]![0] > i) hi = mid - 1;
    else return true;
  }
  return false;
}

/**
 * A literal in a credential-named field: `Bearer abc...`, `Basic ...`, or a bare value. Strong names
 * judge by name (MIN_NAMED_SECRET_LENGTH, MIN_NAMED_ENTROPY_BITS); weak names (`key`, `auth`) need a
 * random-looking value (MIN_SECRET_LENGTH, MIN_ENTROPY_BITS) that is not a record id (isLookalike).
 */
function scanCredentialField(s: string, strength: 'strong' | 'weak', out: SecretFinding[]): void {
  if (isMapped(s)) return;
  const m = /^\s*(?:(?:bearer|basic|token|apikey|api-key|key)\s+)?/i.exec(s);
  const offset = m ? m[0].length : 0;
  const value = s.slice(offset).trim();
  if (/\s/.test(value) || isPlaceholder(value)) return;
  if (
    strength === 'strong'
      ? value.length < MIN_NAMED_SECRET_LENGTH || shannonEntropy(value) < MIN_NAMED_ENTROPY_BITS
      : value.length < MIN_SECRET_LENGTH || shannonEntropy(value) < MIN_ENTROPY_BITS || isLookalike(value)
  )
    return;
  out.push({
    kind: 'credential-field',
    title: 'value in a credential-named field',
    start: offset,
    end: offset + value.length,
  });
}

/**
 * Replaces every finding in `text` by `<first 4 chars>…[REDACTED n chars]` and shortens the result to
 * 200 characters around the first finding (60 characters of context before it), so evidence never
 * carries a usable secret and always shows where the first one was.
 */
export function redact(text: string, findings: readonly SecretFinding[]): string {
  let outText = '';
  let at = 0;
  let first = -1;
  for (const f of findings) {
    outText += text.slice(at, f.start);
    if (first < 0) first = outText.length;
    outText += `${text.slice(f.start, f.start + Math.min(4, Math.floor((f.end - f.start) / 4)))}…[REDACTED ${f.end - f.start} chars]`;
    at = f.end;
  }
  outText += text.slice(at);
  if (first > 120) outText = `…${outText.slice(first - 60)}`;
  return outText.length > 200 ? `${outText.slice(0, 199)}…` : outText;
}
