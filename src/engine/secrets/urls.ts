/**
 * @module engine/secrets/urls: credentials carried by URLs, found in linear time on any host: the
 * password of basic-auth user info; query parameters that are credential-named (OWASP "Information
 * exposure through query strings"; CWE-598) or hold a known key format; path segments that hold a
 * known key format or a Telegram `bot<id>:<token>`, follow a credential keyword (`/key/<k>`,
 * `/token/<t>`, `/webhook/.../<t>`) or sit right after an API version (`/v1/<key>/send`); and the
 * webhook URLs of a documented catalog (Make, Slack, Discord, Zapier) whose path is the credential.
 * As TruffleHog detectors do: a keyword, position or documented host as context, then shape, length
 * and entropy thresholds. No rule names an API host (issue 32).
 */
import type { SecretFinding } from './types.js';
import { CREDENTIAL_NAMES, credentialStrength, matchKnownFormat, normalizeName } from './patterns.js';
import { isMapped, isPlaceholder } from './placeholder.js';
import { shannonEntropy } from './entropy.js';

/**
 * Make webhook URL hosts (Make help, "Webhooks": `https://hook.<zone>.make.com/<token>`): every zone,
 * Celonis-era zones, and the Integromat hosts of older scenarios (`hook.integromat.com`, with or
 * without a zone).
 */
const MAKE_HOOK_HOST = /^hook\.(?:[a-z0-9-]{2,20}\.)?(?:make\.com|make\.celonis\.com|integromat\.com)$/;

/** A host whose URL path carries the credential; each capture group (`d` flag: offsets) is one secret part. */
interface PathCredential {
  readonly kind: string;
  readonly title: string;
  readonly host: RegExp;
  /** Anchored at the start of the path; every group is a secret part. */
  readonly path: RegExp;
}

/**
 * Webhook hosts whose path is (or holds) the credential, each from the service's own documentation
 * (issue 32: a host is named only from a documented catalog): Make "Webhooks" (the hook URL is the
 * hook's token, 32 characters), Slack "Sending messages using incoming webhooks", Discord "Webhook
 * resource" (`/webhooks/{id}/{token}`), Zapier "Catch Hook". API keys in paths are found by shape and
 * context on any host (`checkPathSegments`): no API host is named here.
 */
const PATH_CREDENTIALS: readonly PathCredential[] = [
  {
    kind: 'make-webhook-url-token',
    title: 'Make webhook URL (the path is the credential)',
    host: MAKE_HOOK_HOST,
    // The token is 32 characters and ends there, whatever follows it (`…/<token>open&`).
    path: /^\/([a-z0-9]{32})/d,
  },
  {
    kind: 'slack-webhook-url',
    title: 'Slack incoming webhook URL',
    host: /^hooks\.slack\.com$/,
    path: /^\/(?:services|workflows|triggers)\/([A-Za-z0-9_/-]{20,200})/d,
  },
  {
    kind: 'discord-webhook-url',
    title: 'Discord webhook URL',
    host: /^(?:ptb\.|canary\.)?discord(?:app)?\.com$/,
    path: /^\/api\/webhooks\/\d{5,30}\/([A-Za-z0-9_-]{20,100})/d,
  },
  {
    kind: 'zapier-webhook-url',
    title: 'Zapier webhook URL',
    host: /^hooks\.zapier\.com$/,
    path: /^\/hooks\/catch\/(\d{3,12}\/[a-z0-9]{5,12})/d,
  },
];

/** Path segments after which the next segment is a key (`/with/key/<k>`, `/token/<t>`, `/apikey/<k>`). */
const KEY_SEGMENTS: ReadonlySet<string> = new Set([
  'key',
  'keys',
  'apikey',
  'token',
  'tokens',
  'accesstoken',
  'authtoken',
  'secret',
  'secrets',
  'authkey',
]);
/** Path segments after which a random-looking segment is a webhook token (`/webhook/send/<t>`, n8n `/webhook/<uuid>`). */
const HOOK_SEGMENTS: ReadonlySet<string> = new Set([
  'webhook',
  'webhooks',
  'hook',
  'hooks',
  'webhooktest',
  'incomingwebhook',
  'incomingwebhooks',
]);
/** Segments before a `/token/<t>` pair whose next segment is the instance half of the credential (Z-API clones). */
const INSTANCE_SEGMENTS: ReadonlySet<string> = new Set(['instances', 'instance']);

/** Minimum length of a path-segment credential (gitleaks generic rule: 10; TruffleHog keyword detectors: 16+). */
export const MIN_PATH_SECRET_LENGTH = 16;
/** Minimum Shannon entropy (bits/char) of a path-segment credential: 16 random hex characters score ≈ 3.4-3.9. */
export const MIN_PATH_SECRET_ENTROPY = 3.0;

function isSchemeChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 45 || c === 46;
}

/** Whitespace, quotes, `<`, `>`, `|`, backslash, backtick end a URL. */
function isUrlEnd(c: number): boolean {
  return c <= 32 || c === 34 || c === 39 || c === 60 || c === 62 || c === 124 || c === 92 || c === 96;
}

/**
 * Finds URLs by their `://` (indexOf, linear), checks each, and returns their `[start, end)` spans
 * so that the other detectors skip them.
 */
export function scanUrls(s: string, out: SecretFinding[]): [number, number][] {
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
        out.push({
          kind: 'url-basic-auth',
          title: 'Password in URL user info',
          start: pStart,
          end: pStart + password.length,
        });
      }
    }
  }
  const host = authority
    .slice(at + 1)
    .replace(/:\d+$/, '')
    .toLowerCase();
  let pathEnd = authorityEnd;
  while (pathEnd < end && s[pathEnd] !== '?' && s[pathEnd] !== '#') pathEnd++;
  const path = s.slice(authorityEnd, pathEnd);
  if (!checkKnownPath(host, path, authorityEnd, out)) checkPathSegments(s, path, authorityEnd, out);
  if (s[pathEnd] === '?') checkQuery(s, pathEnd + 1, end, out, host);
}

/** Catalog webhook URLs (PATH_CREDENTIALS); true when the host and path matched, secret or placeholder. */
function checkKnownPath(host: string, path: string, offset: number, out: SecretFinding[]): boolean {
  for (const rule of PATH_CREDENTIALS) {
    if (!rule.host.test(host)) continue;
    const m = rule.path.exec(path);
    if (!m) continue;
    (m.indices ?? []).forEach((span, group) => {
      if (group === 0 || span === undefined || isPlaceholder(path.slice(span[0], span[1]))) return;
      out.push({ kind: rule.kind, title: rule.title, start: offset + span[0], end: offset + span[1] });
    });
    return true;
  }
  return false;
}

/**
 * A Telegram bot token as a path segment, on any host (Telegram Bot API: requests go to
 * `/bot<token>/METHOD_NAME`, on `api.telegram.org` or a local Bot API server; the token is
 * `<bot id>:<secret>`). Group 1 is the token.
 */
const TELEGRAM_SEGMENT = /^bot(\d{5,16}:[A-Za-z0-9_-]{30,40})/d;
/** An API version segment (`v1`, `v6`, `v2.1`, `v1_1`): the segment after it is often the caller's key. */
const VERSION_SEGMENT = /^v\d{1,2}(?:[._]\d{1,2})?$/;
/** A word segment (an API method or resource name: `send`, `latest`, `sendMessage`). */
const WORD_SEGMENT = /^[A-Za-z][A-Za-z_-]{1,40}$/;
/** Longest path segment judged by shape after a version segment. */
const MAX_KEY_SEGMENT = 128;
/** Shortest path segment judged by shape alone after a version segment (API keys are 20+ characters; ids of 16-19 are common). */
export const MIN_VERSIONED_KEY_LENGTH = 20;
/** Identifiers that sit where keys do and are not secret: UUIDs (records, tenants), numbers, Google file ids (`1` + 32-43). */
const ID_SHAPE = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+|1[A-Za-z0-9_-]{32,43})$/i;

/** Title of both halves of an `/instances/<id>/token/<t>` pair. */
const INSTANCE_PAIR_TITLE = 'instance id and token in the URL path';

interface Segment {
  readonly start: number;
  readonly end: number;
  readonly raw: string;
  readonly norm: string;
}

/**
 * Path segments that are credentials, on any host: a known key format at a segment's start, a
 * Telegram `bot<id>:<token>` segment (TELEGRAM_SEGMENT), the segment after a KEY_SEGMENTS keyword, a
 * random-looking segment anywhere after a HOOK_SEGMENTS keyword, and a key-shaped segment right after
 * an API version and before a word (`/v1/<key>/send`, ExchangeRate-API's `/v6/<key>/latest/USD`): a
 * literal of token characters, MIN_VERSIONED_KEY_LENGTH or longer, with letters and digits, of
 * entropy ≥ MIN_PATH_SECRET_ENTROPY, not an identifier shape (ID_SHAPE).
 * `offset` is the path's offset in `s`.
 */
function checkPathSegments(s: string, path: string, offset: number, out: SecretFinding[]): void {
  if (path.length === 0) return;
  // A window that moves along the path: three segments before the one judged (keywords,
  // `/instances/<id>/token/<t>`) and one after it (the method after a version). No array of every
  // segment: a path of a million segments stays one pass with constant memory.
  let owner: Segment | undefined;
  let before: Segment | undefined;
  let prev: Segment | undefined;
  let seg: Segment | undefined = readSegment(path, 1);
  let afterHook = false;
  while (seg !== undefined) {
    const next: Segment | undefined = seg.end < path.length ? readSegment(path, seg.end + 1) : undefined;
    if (seg.raw.length >= 10 && !segmentFormat(s, seg, offset, out)) {
      if (isSegmentSecret(seg.raw, prev !== undefined && KEY_SEGMENTS.has(prev.norm), afterHook)) {
        // `/instances/<id>/token/<t>`: the instance id is the other half of the credential.
        if (
          prev?.norm.startsWith('token') &&
          before &&
          owner &&
          INSTANCE_SEGMENTS.has(owner.norm) &&
          isSegmentSecret(before.raw, true, false)
        ) {
          out.push({
            kind: 'url-path-credential',
            title: INSTANCE_PAIR_TITLE,
            start: offset + before.start,
            end: offset + before.end,
            identifier: true,
          });
          out.push({
            kind: 'url-path-credential',
            title: INSTANCE_PAIR_TITLE,
            start: offset + seg.start,
            end: offset + seg.end,
          });
        } else
          out.push({
            kind: 'url-path-credential',
            title: afterHook ? 'webhook token in the URL path' : 'key in the URL path',
            start: offset + seg.start,
            end: offset + seg.end,
          });
      } else if (
        prev !== undefined &&
        next !== undefined &&
        VERSION_SEGMENT.test(prev.raw) &&
        WORD_SEGMENT.test(next.raw) &&
        isKeyShaped(seg.raw)
      ) {
        out.push({
          kind: 'url-path-credential',
          title: 'key in the URL path (after the API version)',
          start: offset + seg.start,
          end: offset + seg.end,
        });
      }
    }
    if (HOOK_SEGMENTS.has(seg.norm)) afterHook = true;
    owner = before;
    before = prev;
    prev = seg;
    seg = next;
  }
}

/** Longest segment compared with the keyword sets (`incoming-webhooks` and its spellings). */
const MAX_KEYWORD_SEGMENT = 24;

/** The path segment that starts at `i` (after a `/`), up to the next `/` or the end of the path. */
function readSegment(path: string, i: number): Segment {
  let j = path.indexOf('/', i);
  if (j < 0) j = path.length;
  const raw = path.slice(i, j);
  return { start: i, end: j, raw, norm: raw.length <= MAX_KEYWORD_SEGMENT ? normalizeName(raw) : '' };
}

/** A known key format at the start of a segment, or a Telegram `bot<token>` segment; true when one was found (or was a placeholder). */
function segmentFormat(s: string, seg: Segment, offset: number, out: SecretFinding[]): boolean {
  if (seg.raw.startsWith('bot')) {
    const m = TELEGRAM_SEGMENT.exec(seg.raw);
    const span = m?.indices?.[1];
    if (span) {
      if (!isPlaceholder(seg.raw.slice(span[0], span[1])))
        out.push({
          kind: 'telegram-bot-token',
          title: 'Telegram bot token in the URL path',
          start: offset + seg.start + span[0],
          end: offset + seg.start + span[1],
        });
      return true;
    }
  }
  const at = offset + seg.start;
  const match = matchKnownFormat(s, at);
  if (match === null || match.end > offset + seg.end) return false;
  if (!isPlaceholder(s.slice(at, match.end)))
    out.push({ kind: match.pattern.kind, title: `${match.pattern.title} in the URL path`, start: at, end: match.end });
  return true;
}

function isSegmentSecret(raw: string, afterKey: boolean, afterHook: boolean): boolean {
  if (!afterKey && !afterHook) return false;
  if (raw.length < MIN_PATH_SECRET_LENGTH || raw.length > 512 || !/^[A-Za-z0-9_.~-]+$/.test(raw) || isPlaceholder(raw))
    return false;
  // A number is a resource id (`/keys/12345678901234567` is a deploy key's id); after a hook keyword, a word is a path.
  if (!/[A-Za-z]/.test(raw) || (!afterKey && !/\d/.test(raw))) return false;
  return shannonEntropy(raw) >= MIN_PATH_SECRET_ENTROPY;
}

/** A key by shape alone (see checkPathSegments): token characters, letters and digits, random-looking, not an identifier shape. */
function isKeyShaped(raw: string): boolean {
  return (
    raw.length >= MIN_VERSIONED_KEY_LENGTH &&
    raw.length <= MAX_KEY_SEGMENT &&
    /^[A-Za-z0-9_-]+$/.test(raw) &&
    /[A-Za-z]/.test(raw) &&
    /\d/.test(raw) &&
    !ID_SHAPE.test(raw) &&
    !isPlaceholder(raw) &&
    shannonEntropy(raw) >= MIN_PATH_SECRET_ENTROPY
  );
}

/**
 * Firebase Realtime Database hosts, where `?auth=` carries a database secret (legacy) or an ID token:
 * a database secret grants full read and write access to the whole database, bypassing security
 * rules (Firebase documentation, "Authenticate REST requests": database secrets are deprecated
 * because of that), hence its own, critical kind.
 */
const FIREBASE_DATABASE_HOST = /(?:^|\.)(?:firebaseio\.com|firebasedatabase\.app)$/;

/** True for a query parameter name that carries a credential: CREDENTIAL_NAMES, or a name that says secret (`hapikey`, `private_token`, `clientSecret`). */
function isCredentialParam(name: string): boolean {
  return CREDENTIAL_NAMES.has(name) || credentialStrength(name) === 'strong';
}

/**
 * The query's credentials: a value that starts with a known key format, whatever its parameter's
 * name (`?q=ghp_…`), else the value of a credential-named parameter (isCredentialParam) of at least
 * 8 characters. Every finding is marked `inQuery`.
 */
function checkQuery(s: string, from: number, end: number, out: SecretFinding[], host: string): void {
  // Every search stops at the URL's end: a text of many URLs and no `#`, `&` or `=` stays linear.
  const hash = indexBefore(s, '#', from, end);
  let i = from;
  let eq = -1; // next `=` (or `hash`), searched again only once passed (many `&` and no `=` stay linear)
  while (i < hash) {
    const amp = indexBefore(s, '&', i, hash);
    if (eq < i) eq = indexBefore(s, '=', i, hash);
    if (eq > i && eq < amp && amp - eq > 8) {
      const name = normalizeName(safeDecode(s.slice(i, eq)));
      const value = s.slice(eq + 1, amp);
      const match = isMapped(value) ? null : matchKnownFormat(s, eq + 1);
      if (match !== null && match.end <= amp) {
        if (!isPlaceholder(s.slice(eq + 1, match.end)))
          out.push({
            kind: match.pattern.kind,
            title: `${match.pattern.title} in URL query parameter "${name}"`,
            start: eq + 1,
            end: match.end,
            inQuery: true,
          });
      } else if (isCredentialParam(name) && !isMapped(value) && !isPlaceholder(safeDecode(value))) {
        const firebase = name === 'auth' && FIREBASE_DATABASE_HOST.test(host);
        out.push(
          firebase
            ? {
                kind: 'firebase-database-secret',
                title: 'Firebase Realtime Database secret in URL query parameter "auth"',
                start: eq + 1,
                end: amp,
                inQuery: true,
              }
            : {
                kind: 'url-query-credential',
                title: `credential in URL query parameter "${name}"`,
                start: eq + 1,
                end: amp,
                inQuery: true,
              },
        );
      }
    }
    i = amp + 1;
  }
}

/**
 * Index of `ch` in `s` from `from`, or `end` when it is not before `end`: a search that never reads
 * past the URL (`indexOf` would scan the rest of the text for a character the URL lacks).
 */
function indexBefore(s: string, ch: string, from: number, end: number): number {
  const c = ch.charCodeAt(0);
  for (let k = from; k < end; k++) if (s.charCodeAt(k) === c) return k;
  return end;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
