/**
 * @module engine/placeholders: template placeholders that stand where a real connection, id,
 * address or credential must be (`YOUR_SPREADSHEET_ID`, `<CONNECTION_ID>`, `CONNECTION_PLACEHOLDER`,
 * `Your Telegram chatId`, `PleaseReplaceWithYourChatId`, `[SUPABASE_ANON_KEY]`).
 *
 * Strict on purpose: a value is a placeholder only when its whole text is a marker (or, in URL and
 * credential fields, when it embeds an unambiguous upper-case marker such as `YOUR_MAKE_ZONE`).
 * The secrets scanner's `isPlaceholder` (`secrets/scan.ts`) is deliberately lenient (anything that
 * might be a placeholder is not a secret); every credential-slot value this module recognises is
 * also a placeholder to it, so SEC-1 and ARC-10 never report the same value (a test keeps them in step).
 * Sources: the placeholder shapes of public Make exports (corpus make-extra MANIFEST, category 4;
 * corpus FORMAT.md "Connections": `CONNECTION_PLACEHOLDER`, `<CONNECTION_ID>`, `YOUR_CONNECTION_ID`).
 */

/** Whole-value marker forms, by name (the name is for tests and docs). Tried in order on the unwrapped value. */
export const PLACEHOLDER_FORMS: readonly (readonly [string, RegExp])[] = [
  ['your-prefix', /^your[\s_-]+\S/i], // YOUR_SPREADSHEET_ID, Your Telegram chatId, your-api-key-here
  ['your-camel', /^Your[A-Z]/], // YourChatId
  ['angle', /^<[A-Za-z][\w .:@-]{0,80}>$/], // <CONNECTION_ID>, <YOUR_EMAIL>
  ['bracket', /^\[[A-Z][A-Z0-9_ ]{0,80}\]$/], // [SUPABASE_ANON_KEY]
  ['brace', /^\{[A-Z][A-Z0-9_]{0,80}\}$/], // {SHEET_ID} (single braces: `{{...}}` is a Make mapping)
  ['placeholder-word', /^[\w-]*placeholder[\w-]*$/i], // CONNECTION_PLACEHOLDER
  [
    'replace-with',
    /^(?:please[\s_-]*)?(?:replace|insert|enter|put|paste|fill)[\s_-]+(?:in[\s_-]+)?(?:with|your|the|me|here)(?![a-z])/i,
  ],
  ['replace-camel', /^(?:[Pp]lease)?(?:Replace|Insert|Enter|Put|Paste|Fill)(?:With|Your|The|Me|Here)(?![a-z])/], // PleaseReplaceWithYourChatId
  ['here-suffix', /^\S.*[\s_-]here$/i], // YOUR_API_KEY_HERE, api-key-here
  ['x-run', /^x{3,}(?:[\s_-]x{3,})*$/i], // xxxx, XXXX-XXXX
  ['todo', /^(?:todo|tbd|fixme|changeme|change[_-]me|replace[_-]?me|redacted)$/i],
  ['question-marks', /^\?{2,}$/], // ???: the value is not known yet
  // An e-mail address whose mailbox is "your…" (youremail@domain.com, yourname@company.com): the reader's own address, to fill in.
  ['your-address', /^your[a-z0-9._-]*@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}$/i],
  // An upper-snake name of what belongs there, as environment variables are named: RECIPIENT_WALLET_ADDRESS, SHEET_ID.
  ['upper-snake-slot', /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:ADDRESS|IDS?|KEY|TOKEN|SECRET|URL|EMAIL|PHONE|NUMBER)$/],
];

/** Cheap first pass: every form above contains one of these (most slot values are ids or mappings and stop here). */
const MAY_BE_PLACEHOLDER =
  /[<[{]|\?\?|your|placeholder|here|xxx|please|replace|insert|enter|put|paste|fill|todo|tbd|fixme|change|redacted|_(?:ADDRESS|IDS?|KEY|TOKEN|SECRET|URL|EMAIL|PHONE|NUMBER)$/i;

/** Markers unambiguous enough to find inside a longer value (URLs, `Bearer ...`); tried on literal text only. */
const EMBEDDED =
  /(?:^|[^A-Za-z0-9])(YOUR_[A-Z0-9_]{2,})|(<[A-Z][A-Z0-9_]{2,}>)|([A-Z0-9_]*PLACEHOLDER[A-Z0-9_]*)|(?:^|[^{])(\{[A-Z][A-Z0-9_]{2,}\})(?!\})|(\[[A-Z][A-Z0-9_]{2,}\])/;

/** `Bearer `, `Basic `, `Token `, `Bot ` before a credential. */
const AUTH_SCHEME = /^(?:bearer|basic|token|bot|apikey|key)\s+/i;

/**
 * The placeholder a value consists of, or `null`. Unwraps a leading `/` (Make's Drive and Sheets
 * path prefix: `/YOUR_GOOGLE_SHEET_ID`) and an auth scheme (`Bearer YOUR_API_KEY`). A mapped value
 * (`{{...}}`) is never a whole-value placeholder.
 */
export function wholePlaceholder(value: string): string | null {
  let v = value.trim();
  // A URL is never a whole placeholder (`https://x.example/click-here`); its markers are embedded ones.
  if (v === '' || v.length > 120 || v.includes('{{') || v.includes('://')) return null;
  if (!MAY_BE_PLACEHOLDER.test(v)) return null;
  v = v.replace(AUTH_SCHEME, '');
  if (v.startsWith('/') && !v.slice(1).includes('/')) v = v.slice(1);
  for (const [, re] of PLACEHOLDER_FORMS) if (re.test(v)) return v;
  return null;
}

/**
 * An unambiguous marker inside a longer value (`https://hook.YOUR_MAKE_ZONE.make.com/...`,
 * `Bearer YOUR_GROQ_API_KEY`, `https://api.telegram.org/bot<YOUR_BOT_TOKEN>/sendMessage`), looked
 * for in the literal text only (`{{...}}` mappings are skipped). Returns the marker alone, never the
 * surrounding value, so evidence cannot carry a real secret that sits beside it.
 */
export function embeddedPlaceholder(value: string): string | null {
  const literal = value.includes('{{') ? value.replace(/\{\{[^}]*\}\}/g, ' ') : value;
  const m = EMBEDDED.exec(literal);
  if (!m) return null;
  return m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? null;
}
