/**
 * @module engine/secrets/publishable: what a token's own shape or claims say about it (issue 32,
 * "publishable keys"). Some keys are public by design and documented as safe to ship in a web page;
 * a blueprint that holds one exposes nothing its provider does not already publish:
 *
 * | key | how it says so | source |
 * |---|---|---|
 * | Supabase anon key | a JWT whose payload claims `"role": "anon"` | Supabase docs, "Securing your data": the anon key "is safe to expose with RLS enabled"; "Understanding API keys" (the keys are JWTs carrying `role`) |
 * | Supabase publishable key | prefix `sb_publishable_` | Supabase docs, "Understanding API keys": "Safe to expose online" |
 * | Stripe (and Clerk) publishable key | prefix `pk_live_` / `pk_test_` | Stripe docs, "API keys": publishable keys identify the account in client-side code; gitleaks `stripe-access-token` matches `(sk\|pk)_(test\|live)_` |
 * | Mapbox public token | prefix `pk.eyJ` | Mapbox docs, "Access tokens": `pk` tokens are public, `sk` secret; gitleaks `mapbox-api-token` |
 * | Flutterwave public key | prefix `FLWPUBK-` / `FLWPUBK_TEST-` | gitleaks `flutterwave-public-key`; Flutterwave docs: the public key is used on the client |
 *
 * The JWT payload is decoded here, safely: base64url of at most MAX_JWT_PAYLOAD characters, any
 * other character or invalid JSON gives `null`, never an exception.
 */

/** Longest JWT payload segment decoded (characters of base64url): the `jwt` format's own bound. */
export const MAX_JWT_PAYLOAD = 8000;

/** Value of a base64url (or base64) character, or -1. */
function sextet(c: number): number {
  if (c >= 65 && c <= 90) return c - 65;
  if (c >= 97 && c <= 122) return c - 71;
  if (c >= 48 && c <= 57) return c + 4;
  if (c === 45 || c === 43) return 62;
  if (c === 95 || c === 47) return 63;
  return -1;
}

/**
 * The claims of a JWT (`<header>.<payload>.<signature>`, RFC 7519): its payload, base64url-decoded
 * (RFC 4648 §5, padding optional) and parsed as a JSON object. Bytes are read as Latin-1 (claim names
 * and the values compared here are ASCII). `null` for anything else: no two dots, an empty or
 * too long payload (MAX_JWT_PAYLOAD), a character outside base64url, JSON that does not parse or is
 * not an object. Linear in the payload's length; never throws.
 */
export function jwtClaims(token: string): Readonly<Record<string, unknown>> | null {
  const first = token.indexOf('.');
  const second = first < 0 ? -1 : token.indexOf('.', first + 1);
  if (second < 0) return null;
  let end = second;
  while (end > first + 1 && token.charCodeAt(end - 1) === 61) end--; // `=` padding
  if (end - first - 1 < 2 || end - first - 1 > MAX_JWT_PAYLOAD) return null;
  let text = '';
  let bits = 0;
  let acc = 0;
  for (let i = first + 1; i < end; i++) {
    const v = sextet(token.charCodeAt(i));
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      text += String.fromCharCode((acc >> bits) & 0xff);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : null;
}

/** A public key, and why it is one (shown in the finding's reason). */
export interface PublishableKey {
  /** Finding title: "Supabase anon key (publishable: its claims say role \"anon\")". */
  readonly title: string;
}

/** Publishable prefixes (see the module table), longest first where one prefixes another. */
const PUBLISHABLE_PREFIXES: readonly (readonly [string, string])[] = [
  ['sb_publishable_', 'Supabase publishable key (safe to expose online, Supabase docs)'],
  ['pk_live_', 'Stripe or Clerk publishable key (meant for client-side code)'],
  ['pk_test_', 'Stripe or Clerk publishable test key (meant for client-side code)'],
  ['pk.eyJ', 'Mapbox public token (a `pk` token is public, Mapbox docs)'],
  ['FLWPUBK_TEST-', 'Flutterwave public test key (used on the client)'],
  ['FLWPUBK-', 'Flutterwave public key (used on the client)'],
];

/**
 * The publishable key `value` is, by its documented prefix or, for a JWT, by its own `role` claim
 * (`anon`: Supabase's anon key); `null` for any other value (including a JWT whose claims cannot be
 * read: it stays a secret).
 */
export function publishableKey(value: string): PublishableKey | null {
  for (const [prefix, title] of PUBLISHABLE_PREFIXES) if (value.startsWith(prefix)) return { title };
  if (value.startsWith('eyJ') && jwtClaims(value)?.['role'] === 'anon')
    return {
      title:
        'Supabase anon key (publishable: its claims say role "anon"; safe to expose only with Row Level Security on every table it reaches)',
    };
  return null;
}

/**
 * A more precise title for a JWT whose claims name a privileged role: Supabase's `service_role` key
 * bypasses Row Level Security (Supabase docs, "Understanding API keys": "never safe to expose");
 * `null` when the claims say nothing more.
 */
export function privilegedJwtTitle(value: string): string | null {
  if (!value.startsWith('eyJ')) return null;
  return jwtClaims(value)?.['role'] === 'service_role'
    ? 'Supabase service_role key (a JWT whose claims say role "service_role": it bypasses Row Level Security)'
    : null;
}
