/** @module render/escape: XML text and attribute escaping, and label shortening, for the scenario picture. */

/**
 * Characters XML 1.0 forbids (C0 controls but tab, newline and carriage return; U+FFFE, U+FFFF) and
 * lone surrogates: a tenant's module name may carry them, and one would make the SVG ill-formed.
 */
const INVALID_XML =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes `text` for XML or HTML text and for a double- or single-quoted attribute value: `& < > " '`
 * become entities and characters XML cannot carry become U+FFFD.
 */
export function escapeXml(text: string): string {
  return text.replace(INVALID_XML, '\uFFFD').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/**
 * `text` cut to at most `max` code points, an ellipsis replacing the rest (a surrogate pair is never
 * split). Whitespace runs collapse to one space first.
 */
export function shorten(text: string, max: number): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length <= max ? chars.join('') : `${chars.slice(0, Math.max(1, max - 1)).join('')}…`;
}

/** A coordinate with one decimal at most, `-0` as `0`: the same layout always prints the same bytes. */
export function num(n: number): string {
  const r = Math.round(n * 10) / 10;
  return Object.is(r, -0) ? '0' : String(r);
}
