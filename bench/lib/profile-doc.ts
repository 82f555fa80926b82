/**
 * @module bench/lib/profile-doc: keeps the profile tables of bench/profile in docs/performance.md.
 * Each table sits between `<!-- profile:<key> -->` and `<!-- /profile:<key> -->`; the section
 * "## Where the time goes" holds them and is kept when bench/run rewrites the file (`keptSection`).
 */

/** The heading of the section of docs/performance.md that bench/run keeps. */
export const PROFILE_HEADING = '## Where the time goes';

/**
 * `doc` with the block of `key` replaced by `table` (appended to the profile section, which is
 * created at the end of the file when missing).
 */
export function replaceProfileBlock(doc: string, key: string, table: string): string {
  const open = `<!-- profile:${key} -->`;
  const close = `<!-- /profile:${key} -->`;
  const block = `${open}\n${table.trim()}\n${close}`;
  const a = doc.indexOf(open);
  const b = doc.indexOf(close);
  if (a >= 0 && b > a) return `${doc.slice(0, a)}${block}${doc.slice(b + close.length)}`;
  const withSection = doc.includes(PROFILE_HEADING) ? doc : `${doc.trimEnd()}\n\n${PROFILE_HEADING}\n`;
  return `${withSection.trimEnd()}\n\n${block}\n`;
}

/** The profile section of `doc` (from its heading to the end), or '' when it has none: bench/run appends it to the file it rewrites. */
export function keptSection(doc: string): string {
  const at = doc.indexOf(PROFILE_HEADING);
  return at >= 0 ? doc.slice(at).trimEnd() : '';
}
