/**
 * @module model/rfc3339: the one parser of timestamps that come from outside (issue 31, item 5): API
 * bodies (`expires_at` of waivers and console keys), the admin CLI (`--expires-at`) and the scanner's
 * waiver files (`expires`, a date). RFC 3339 §5.6 only, read strictly: a real calendar date (days per
 * month, leap years by the Gregorian rule of §5.7 / Appendix C), a time with `Z` or a `±hh:mm` offset
 * (never the reader's local zone), an optional fraction. `Date.parse` is lenient on every one of these
 * (it reads `2027-02-30` as 2 March and a time without an offset in the local zone), and ajv-formats'
 * `date-time` accepts `+0100`, `+01` and a space for `T`; neither is used for input.
 *
 * Decisions: `T` and `Z` may be lower case (RFC 3339 §5.6 note: ABNF strings are case-insensitive);
 * the space separator that the same note allows "for readability" is refused (it is outside the
 * ABNF, and needs quoting in a shell or a query string); a leap second (`:60`) is refused (JavaScript time
 * has none, and §5.7 allows it only at the end of a June or December UTC day); `-00:00` (§4.3,
 * unknown local offset) is UTC. Fractions finer than a millisecond are truncated.
 */

/** `YYYY-MM-DD` with the parts captured. */
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** full-date `T` partial-time time-offset (RFC 3339 §5.6), the parts captured. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** The message of a field error for a value that is not an RFC 3339 date-time. */
export const DATE_TIME_RULE = 'must be an RFC 3339 date-time with Z or an offset, such as 2027-01-31T00:00:00Z';
/** The message of a field error for a value that is not an RFC 3339 full-date. */
export const FULL_DATE_RULE = 'must be a calendar date YYYY-MM-DD, such as 2027-01-31';

const isLeapYear = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

/** True when year, month (1-12) and day form a real Gregorian calendar date. */
function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** Epoch ms of a UTC date and time (years 0-99 included, which `Date.UTC` would move to 19xx). */
function utcMs(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, ms);
  return date.getTime();
}

/**
 * Parses an RFC 3339 date-time such as `2027-01-31T12:00:00Z` or `2027-01-31T13:00:00.5+01:00`.
 * @returns the instant in epoch milliseconds, or null for anything else (no offset, a date alone, a
 * space for `T`, `+0100`, an impossible date or time, a leap second, surrounding spaces).
 */
export function parseDateTime(text: string): number | null {
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!isCalendarDate(y, mo, d) || h > 23 || mi > 59 || s > 59) return null;
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  let offsetMin = 0;
  if (m[8] === undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offsetMin = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  return utcMs(y, mo, d, h, mi, s, ms) - offsetMin * 60_000;
}

/**
 * Checks an RFC 3339 full-date `YYYY-MM-DD` (a real calendar date: `2027-02-29` is refused,
 * `2028-02-29` accepted).
 * @returns true when it is one.
 */
export function isFullDate(text: string): boolean {
  const m = FULL_DATE.exec(text);
  return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}
