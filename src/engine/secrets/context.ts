/**
 * @module engine/secrets/context: secrets of no well-known format, found by their context inside free
 * text (JSON bodies, scripts, notes, app inputs), as gitleaks' `generic-api-key` rule does: a
 * credential keyword as the name of an assignment (`"api_key": "…"`, `token=…`, `X-Api-Key: …`), a
 * `{"name": "<credential>", "value": "…"}` pair, an authorization scheme (`Bearer …`), or a browser
 * cookie export (`"httpOnly"`, `"domain"`, `"value": "…"`: session cookies), then length and entropy
 * thresholds. Every separator is visited once and every look-around is bounded, so a scan is linear.
 */
import type { SecretFinding } from './types.js';
import { credentialStrength, type NameStrength } from './patterns.js';
import { isLookalike, isMapped, isPlaceholder } from './placeholder.js';
import { shannonEntropy } from './entropy.js';

/** Thresholds per context strength (gitleaks generic rule: entropy 3.5, 10+ characters; a strong name lowers the bar). */
export const TEXT_THRESHOLDS: Readonly<
  Record<NameStrength | 'cookie' | 'scheme', { readonly minLength: number; readonly minEntropy: number }>
> = {
  strong: { minLength: 8, minEntropy: 3.0 },
  weak: { minLength: 16, minEntropy: 3.5 },
  cookie: { minLength: 16, minEntropy: 3.0 },
  scheme: { minLength: 16, minEntropy: 3.0 },
};

/**
 * Every credential name (patterns.ts CREDENTIAL_NAMES and suffixes), scheme and cookie-export marker
 * contains one of these stems: text without any cannot hold a context finding (one native test).
 */
const CONTEXT_WORDS = /auth|key|sig|code|pass|pwd|secret|token|cred|bearer|httponly|hostonly/i;

/** Longest name looked back at before a separator, and longest value read after it (JWTs, signed cookies). */
const MAX_NAME = 64;
const MAX_VALUE = 4096;
/** Distance (characters) within which a `"value"` belongs to the preceding `"name"` of the same pair. */
const PAIR_WINDOW = 256;

/** `[A-Za-z0-9_.-]`: characters of a name. */
function isNameChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45 || c === 46;
}

/** Characters of a secret value: token characters plus base64, URL-escape and password symbols (no quote, space, comma, brace, `&`, `;`). */
function isValueChar(c: number): boolean {
  return (
    isNameChar(c) ||
    c === 43 ||
    c === 47 ||
    c === 61 ||
    c === 126 ||
    c === 37 ||
    c === 33 ||
    c === 35 ||
    c === 64 ||
    c === 42 ||
    c === 94 ||
    c === 36
  );
}

/** Quote, space, tab, backtick: what may stand between a name, its separator and its value. */
function isGap(c: number): boolean {
  return c === 34 || c === 39 || c === 32 || c === 9 || c === 96;
}

/** An authorization scheme before a value (`Bearer `, `Basic `, `Token `). Sticky: tried at one position. */
const SCHEME = /(?:bearer|basic|token|apikey|api-key)[ \t]+/iy;

function skipScheme(s: string, k: number): number {
  SCHEME.lastIndex = k;
  return SCHEME.test(s) ? SCHEME.lastIndex : k;
}

function readValue(s: string, k: number): number {
  let e = k;
  while (e < s.length && e - k <= MAX_VALUE && isValueChar(s.charCodeAt(e))) e++;
  return e;
}

function judge(value: string, t: { minLength: number; minEntropy: number }, weak: boolean): boolean {
  if (value.length < t.minLength || value.length > MAX_VALUE || isMapped(value) || isPlaceholder(value)) return false;
  if (weak && isLookalike(value)) return false;
  return shannonEntropy(value) >= t.minEntropy;
}

/** Tells whether increasing positions fall inside URL spans (sorted, disjoint): one forward pass over the spans. */
class SpanCursor {
  private at = 0;
  constructor(private readonly spans: readonly (readonly [number, number])[]) {}
  /** True when `pos` is inside a span; `pos` must not decrease between calls. */
  inside(pos: number): boolean {
    while (this.at < this.spans.length && this.spans[this.at]![1] <= pos) this.at++;
    return this.at < this.spans.length && this.spans[this.at]![0] <= pos;
  }
}

/** The pair name after `"name":`: a quoted string (spaces allowed, ≤ 64 characters) or a run of value characters. */
function readPairName(s: string, k: number): { name: string; end: number } {
  if (k > 0 && s.charCodeAt(k - 1) === 34) {
    const close = s.indexOf('"', k);
    if (close > k && close - k <= MAX_NAME) return { name: s.slice(k, close), end: close };
  }
  const e = readValue(s, k);
  return { name: s.slice(k, Math.min(e, k + MAX_NAME)), end: e };
}

/**
 * Scans `s` for assignments, pairs, schemes and cookie values; skips positions inside `urlSpans`
 * (URLs have their own detector). Appends to `out`.
 */
export function scanContext(s: string, urlSpans: readonly (readonly [number, number])[], out: SecretFinding[]): void {
  if (!CONTEXT_WORDS.test(s)) return;
  const cookieJar = (s.includes('"httpOnly"') || s.includes('"hostOnly"')) && s.includes('"domain"');
  const urls = new SpanCursor(urlSpans);
  let pairName: string | null = null;
  let pairAt = -1;
  const seps = new Separators(s);
  let i = seps.next(0);
  while (i >= 0) {
    let next = i + 1;
    if (!(s.charCodeAt(i) === 58 && s.charCodeAt(i + 1) === 47) && !urls.inside(i)) {
      // Name: identifier characters just before the separator, across at most 3 gap characters.
      let j = i - 1;
      for (let g = 0; g < 3 && j >= 0 && isGap(s.charCodeAt(j)); g++) j--;
      const nameEnd = j + 1;
      while (j >= 0 && nameEnd - j <= MAX_NAME && isNameChar(s.charCodeAt(j))) j--;
      const name = s.slice(j + 1, nameEnd).toLowerCase();
      let k = i + 1;
      for (let g = 0; g < 5 && k < s.length && isGap(s.charCodeAt(k)); g++) k++;
      if (name === 'name' || name === 'key') {
        const pair = readPairName(s, k);
        pairName = pair.name;
        pairAt = pair.end;
        next = Math.max(next, pair.end);
      } else if (name.length > 0) {
        const pair = name === 'value' && pairName !== null && i - pairAt <= PAIR_WINDOW ? pairName : null;
        const context = name === 'value' && cookieJar ? 'cookie' : credentialStrength(pair ?? name);
        if (context !== null) {
          const v = skipScheme(s, k);
          const e = readValue(s, v);
          if (judge(s.slice(v, e), TEXT_THRESHOLDS[context], context === 'weak')) {
            out.push(
              context === 'cookie'
                ? { kind: 'session-cookie', title: 'browser session cookie', start: v, end: e }
                : {
                    kind: 'credential-assignment',
                    title: 'credential assigned to a credential-named key in text',
                    start: v,
                    end: e,
                  },
            );
          }
          next = Math.max(next, e);
        }
        if (name === 'value') pairName = null;
      }
    }
    i = seps.next(next);
  }
  scanSchemes(s, urlSpans, out);
}

/**
 * The `:` and `=` of a string in order. Each kind's next position is searched again only once passed,
 * so a string with many `=` and no `:` costs one pass per kind, not one per separator.
 */
class Separators {
  private colon = -2;
  private equals = -2;
  constructor(private readonly s: string) {}
  /** Next `:` or `=` at or after `from` (`from` never decreases), or -1. */
  next(from: number): number {
    if (this.colon !== -1 && this.colon < from) this.colon = this.s.indexOf(':', from);
    if (this.equals !== -1 && this.equals < from) this.equals = this.s.indexOf('=', from);
    return this.colon < 0 ? this.equals : this.equals < 0 ? this.colon : Math.min(this.colon, this.equals);
  }
}

/** `Bearer <token>` anywhere (a filter operand, a message, a raw header block): the scheme is the context (RFC 6750 §2.1). */
function scanSchemes(s: string, urlSpans: readonly (readonly [number, number])[], out: SecretFinding[]): void {
  const urls = new SpanCursor(urlSpans);
  let from = 0;
  for (;;) {
    const at = s.indexOf('earer', from);
    if (at < 1) {
      if (at < 0) return;
      from = at + 5;
      continue;
    }
    from = at + 5;
    const b = s.charCodeAt(at - 1);
    if ((b !== 66 && b !== 98) || (at >= 2 && isNameChar(s.charCodeAt(at - 2))) || urls.inside(at)) continue;
    let k = at + 5;
    if (s.charCodeAt(k) !== 32 && s.charCodeAt(k) !== 9) continue;
    while (k < s.length && (s.charCodeAt(k) === 32 || s.charCodeAt(k) === 9)) k++;
    const e = readValue(s, k);
    if (judge(s.slice(k, e), TEXT_THRESHOLDS.scheme, false))
      out.push({ kind: 'bearer-token', title: 'Bearer token', start: k, end: e });
    from = Math.max(from, e);
  }
}

/** Field names of a request's `Cookie` header (RFC 6265 §5.4), compared lower-case. */
export const COOKIE_FIELDS: ReadonlySet<string> = new Set(['cookie', 'cookies']);

/**
 * The session cookies of a literal `Cookie` header value (`sid=…; csrftoken=…`, RFC 6265 §4.2.1:
 * `name=value` pairs separated by `;`): every value that passes the cookie thresholds (a session
 * id, a signed token; not `lang=en`). One pass over the string.
 */
export function scanCookieHeader(s: string, out: SecretFinding[]): void {
  let i = 0;
  let eq = -2; // next `=`, searched again only once passed (many `;` and no `=` stay linear)
  while (i < s.length) {
    let semi = s.indexOf(';', i);
    if (semi < 0) semi = s.length;
    if (eq !== -1 && eq < i) eq = s.indexOf('=', i);
    if (eq > i && eq < semi) {
      let v = eq + 1;
      while (v < semi && (s.charCodeAt(v) === 32 || s.charCodeAt(v) === 34)) v++;
      let e = semi;
      while (e > v && (s.charCodeAt(e - 1) === 32 || s.charCodeAt(e - 1) === 34)) e--;
      if (judge(s.slice(v, e), TEXT_THRESHOLDS.cookie, false) && !/\s/.test(s.slice(v, e)))
        out.push({ kind: 'session-cookie', title: 'session cookie in a Cookie header', start: v, end: e });
    }
    i = semi + 1;
  }
}
