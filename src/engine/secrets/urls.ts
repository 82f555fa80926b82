/**
 * @module engine/secrets/urls: credentials carried by URLs, found in linear time: the password of
 * basic-auth user info, credential-named query parameters (OWASP "Information exposure through query
 * strings"; CWE-598), paths that are themselves the credential (webhook URLs of Make, Slack, Discord,
 * Telegram, Zapier; API hosts that take the key as a path segment), and path segments that follow a
 * credential keyword (`/key/<k>`, `/token/<t>`, `/webhook/.../<t>`), as TruffleHog detectors do:
 * a keyword or known host as context, then shape, length and entropy thresholds.
 */
import type { SecretFinding } from './types.js';
import { CREDENTIAL_NAMES, normalizeName } from './patterns.js';
import { isMapped, isPlaceholder } from './placeholder.js';
import { shannonEntropy } from './entropy.js';

/** Make webhook URL hosts: `hook.<zone>.make.com`, Celonis-era and Integromat zones (corpus FORMAT.md). */
const MAKE_HOOK_HOST = /^hook\.[a-z0-9-]{2,20}\.(?:make\.com|make\.celonis\.com|integromat\.com)$/;

/** A host whose URL path carries the credential; each capture group (`d` flag: offsets) is one secret part. */
interface PathCredential {
  readonly kind: string;
  readonly title: string;
  readonly host: RegExp;
  /** Anchored at the start of the path; every group is a secret part. */
  readonly path: RegExp;
  /** Groups (1-based) that are the identifier half of the credential (see `SecretFinding.identifier`). */
  readonly identifierGroups?: readonly number[];
}

/**
 * Hosts whose path is (or holds) the credential. Sources: Make "Webhooks" (hook URL = hook token),
 * Slack "Sending messages using incoming webhooks", Discord "Webhook resource" (`/webhooks/{id}/{token}`),
 * Telegram Bot API (`/bot<token>/`), Zapier "Catch Hook", ExchangeRate-API v6 ("`/v6/YOUR-API-KEY/latest/USD`"),
 * Z-API ("`/instances/{instance}/token/{token}/`").
 */
const PATH_CREDENTIALS: readonly PathCredential[] = [
  {
    kind: 'make-webhook-url-token',
    title: 'Make webhook URL (the path is the credential)',
    host: MAKE_HOOK_HOST,
    path: /^\/([a-z0-9]{32})(?![a-z0-9])/d,
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
    kind: 'telegram-bot-token',
    title: 'Telegram bot token in URL',
    host: /^api\.telegram\.org$/,
    path: /^\/(?:file\/)?bot(\d{6,12}:[A-Za-z0-9_-]{30,40})/d,
  },
  {
    kind: 'zapier-webhook-url',
    title: 'Zapier webhook URL',
    host: /^hooks\.zapier\.com$/,
    path: /^\/hooks\/catch\/(\d{3,12}\/[a-z0-9]{5,12})/d,
  },
  {
    kind: 'exchangerate-api-key',
    title: 'ExchangeRate-API key in the URL path',
    host: /^v6\.exchangerate-api\.com$/,
    path: /^\/v6\/([A-Za-z0-9]{16,64})(?![A-Za-z0-9])/d,
  },
  {
    kind: 'z-api-instance-credentials',
    title: 'Z-API instance id and token in the URL path',
    host: /^api\.z-api\.io$/,
    path: /^\/instances\/([A-Za-z0-9]{16,64})\/token\/([A-Za-z0-9]{16,64})(?![A-Za-z0-9])/d,
    identifierGroups: [1],
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
  if (!checkKnownPath(host, path, authorityEnd, out)) checkPathSegments(path, authorityEnd, out);
  if (s[pathEnd] === '?') checkQuery(s, pathEnd + 1, end, out, host);
}

/** Host-specific path credentials (PATH_CREDENTIALS); true when the host and path matched, secret or placeholder. */
function checkKnownPath(host: string, path: string, offset: number, out: SecretFinding[]): boolean {
  for (const rule of PATH_CREDENTIALS) {
    if (!rule.host.test(host)) continue;
    const m = rule.path.exec(path);
    if (!m) continue;
    (m.indices ?? []).forEach((span, group) => {
      if (group === 0 || span === undefined || isPlaceholder(path.slice(span[0], span[1]))) return;
      const finding = { kind: rule.kind, title: rule.title, start: offset + span[0], end: offset + span[1] };
      out.push(rule.identifierGroups?.includes(group) ? { ...finding, identifier: true } : finding);
    });
    return true;
  }
  return false;
}

/**
 * Generic path rule: the segment after a KEY_SEGMENTS keyword, or a random-looking segment anywhere
 * after a HOOK_SEGMENTS keyword, is a credential when it is a literal of token characters, at least
 * MIN_PATH_SECRET_LENGTH long, of entropy ≥ MIN_PATH_SECRET_ENTROPY, with a letter, and not a
 * placeholder; after a hook keyword it must also hold a digit (so `/webhooks/orders/created` stays a path).
 */
function checkPathSegments(path: string, offset: number, out: SecretFinding[]): void {
  const segs: { start: number; end: number; norm: string }[] = [];
  let afterHook = false;
  let i = 1;
  while (i <= path.length) {
    let j = path.indexOf('/', i);
    if (j < 0) j = path.length;
    const raw = path.slice(i, j);
    const norm = raw.length <= 40 ? normalizeName(raw) : '';
    const prev = segs[segs.length - 1];
    const seg = { start: i, end: j, norm };
    if (isSegmentSecret(raw, prev !== undefined && KEY_SEGMENTS.has(prev.norm), afterHook)) {
      // `/instances/<id>/token/<t>`: the instance id is the other half of the credential.
      const before = segs[segs.length - 2];
      const owner = segs[segs.length - 3];
      if (
        prev?.norm.startsWith('token') &&
        before &&
        owner &&
        INSTANCE_SEGMENTS.has(owner.norm) &&
        isSegmentSecret(path.slice(before.start, before.end), true, false)
      ) {
        out.push({
          kind: 'url-path-credential',
          title: 'instance credentials in the URL path',
          start: offset + before.start,
          end: offset + before.end,
          identifier: true,
        });
      }
      out.push({
        kind: 'url-path-credential',
        title: afterHook ? 'webhook token in the URL path' : 'key in the URL path',
        start: offset + i,
        end: offset + j,
      });
    }
    if (HOOK_SEGMENTS.has(norm)) afterHook = true;
    segs.push(seg);
    i = j + 1;
  }
}

function isSegmentSecret(raw: string, afterKey: boolean, afterHook: boolean): boolean {
  if (!afterKey && !afterHook) return false;
  if (raw.length < MIN_PATH_SECRET_LENGTH || raw.length > 512 || !/^[A-Za-z0-9_.~-]+$/.test(raw) || isPlaceholder(raw))
    return false;
  // A number is a resource id (`/keys/12345678901234567` is a deploy key's id); after a hook keyword, a word is a path.
  if (!/[A-Za-z]/.test(raw) || (!afterKey && !/\d/.test(raw))) return false;
  return shannonEntropy(raw) >= MIN_PATH_SECRET_ENTROPY;
}

/**
 * Firebase Realtime Database hosts, where `?auth=` carries a database secret (legacy) or an ID token:
 * a database secret grants full read and write access to the whole database, bypassing security
 * rules (Firebase documentation, "Authenticate REST requests": database secrets are deprecated
 * because of that), hence its own, critical kind.
 */
const FIREBASE_DATABASE_HOST = /(?:^|\.)(?:firebaseio\.com|firebasedatabase\.app)$/;

function checkQuery(s: string, from: number, end: number, out: SecretFinding[], host: string): void {
  let hash = s.indexOf('#', from);
  if (hash < 0 || hash > end) hash = end;
  let i = from;
  let eq = -2; // next `=`, searched again only once passed (a query of many `&` and no `=` stays linear)
  while (i < hash) {
    let amp = s.indexOf('&', i);
    if (amp < 0 || amp > hash) amp = hash;
    if (eq !== -1 && eq < i) eq = s.indexOf('=', i);
    if (eq > i && eq < amp) {
      const name = normalizeName(safeDecode(s.slice(i, eq)));
      const value = s.slice(eq + 1, amp);
      if (CREDENTIAL_NAMES.has(name) && value.length >= 8 && !isMapped(value) && !isPlaceholder(safeDecode(value))) {
        const firebase = name === 'auth' && FIREBASE_DATABASE_HOST.test(host);
        out.push(
          firebase
            ? {
                kind: 'firebase-database-secret',
                title: 'Firebase Realtime Database secret in URL query parameter "auth"',
                start: eq + 1,
                end: amp,
              }
            : {
                kind: 'url-query-credential',
                title: `Credential in URL query parameter "${name}"`,
                start: eq + 1,
                end: amp,
              },
        );
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
