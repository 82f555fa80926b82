/**
 * @module server/console/password-policy: the one password policy of console accounts, applied by the
 * console's `POST /api/v1/users` and by `admin users create --password` (issue 31, item 4). Rules from
 * NIST SP 800-63B §3.1.1.2 (length, no composition rules, refuse context-specific words and values
 * from breach corpora) and the OWASP Authentication Cheat Sheet (at least 8; 12 here; no upper cap
 * below 64, 1,024 here so that scrypt's input stays bounded).
 */

/** Password length in characters (Unicode code points): 12 to 1,024. */
export const PASSWORD_LENGTH = { min: 12, max: 1024 } as const;

/** The common-password list, loaded on first use (it decompresses ~49,000 entries: ~100 ms, a few MB). */
let common: Promise<ReadonlySet<string>> | undefined;

/**
 * The lower-cased `passwords-common` dictionary of `@zxcvbn-ts/language-common` (MIT): the ~49,000
 * most frequent passwords of leaked password corpora that zxcvbn ranks, shipped in the package, so
 * the check works offline and sends nothing anywhere.
 */
function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())),
  );
  return common;
}

/**
 * Why `password` may not be the password of the account `email`, or null. Refused: not a string;
 * fewer than 12 or more than 1,024 characters; equal to the e-mail address or its local part, or
 * containing the whole address (each compared case-insensitively, the address trimmed); in the
 * common-password list (case-insensitively).
 * @param email the account's e-mail as given (it may itself be invalid: that is the caller's check).
 * @returns a message for the field error (`/password`, or the CLI's `--password`); it never repeats the password.
 */
export async function passwordProblem(password: unknown, email: string): Promise<string | null> {
  const length = typeof password === 'string' ? [...password].length : -1;
  if (typeof password !== 'string' || length < PASSWORD_LENGTH.min || length > PASSWORD_LENGTH.max)
    return `must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`;
  const lower = password.toLowerCase();
  const address = email.trim().toLowerCase();
  const local = address.includes('@') ? address.slice(0, address.lastIndexOf('@')) : address;
  if (address !== '' && (lower.includes(address) || lower === local))
    return "must not be or contain the account's e-mail address";
  if ((await commonPasswords()).has(lower)) return 'is a commonly used password (found in password breach lists)';
  return null;
}
