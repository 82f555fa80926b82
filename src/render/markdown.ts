/**
 * @module render/markdown: our Markdown (remediation steps, finding reasons, violation summaries) as safe
 * HTML, the one converter of the web console (console/src/components/markdown.tsx) and `gov scan --format html`.
 */
import { micromark, type Options } from 'micromark';

/** Options of {@link markdownToHtml} and {@link markdownInlineHtml}. */
export interface MarkdownOptions {
  /**
   * Whether `[text](url)` and `<https://...>` become links (default `true`). `false` leaves them as
   * text, for a document that promises no external URL in any `href` (the HTML report).
   */
  readonly links?: boolean;
}

/**
 * Constructs switched off, for what our texts are (a sentence or a step, partly quoting blueprint
 * values): raw HTML (then read as text, escaped), images (a picture would be fetched from wherever its
 * URL points: the HTML report promises no external reference and the console's CSP would block it
 * anyway), headings (a `# ` at a step's start would break the page's outline) and indented code (four
 * leading spaces would turn a step into a code block).
 */
const OFF = ['htmlFlow', 'htmlText', 'labelStartImage', 'headingAtx', 'setextUnderline', 'codeIndented'];

/**
 * micromark (CommonMark) with its safe defaults spelled out, so no later edit flips them by omission:
 * raw HTML in the text is escaped (`allowDangerousHtml: false`), and a link whose destination has a
 * protocol other than http(s), mailto, irc(s) or xmpp gets an empty `href` (`allowDangerousProtocol:
 * false`: no `javascript:`, `data:` or `vbscript:`). The output is built by micromark's own compiler,
 * which escapes every text and attribute value it writes, so no attribute other than `href` and `title`
 * (links) or `class` (fenced code's language) is ever produced.
 */
function options(links: boolean): Options {
  return {
    allowDangerousHtml: false,
    allowDangerousProtocol: false,
    extensions: [{ disable: { null: links ? OFF : [...OFF, 'labelStartLink', 'autolink'] } }],
  };
}
const WITH_LINKS = options(true);
const WITHOUT_LINKS = options(false);

/**
 * Renders `text` (CommonMark: emphasis, code spans, lists, links, fenced code, block quotes) as an
 * HTML fragment, e.g. `**Revoke** it` → `<p><strong>Revoke</strong> it</p>`. Safe to insert into a
 * page as is, whatever `text` holds: no element carries a script, an event handler or a dangerous URL.
 * Pure and synchronous; never throws for a string.
 */
export function markdownToHtml(text: string, opts: MarkdownOptions = {}): string {
  return micromark(text, opts.links === false ? WITHOUT_LINKS : WITH_LINKS).trimEnd();
}

/**
 * As {@link markdownToHtml}, for a place that holds phrasing content (a table cell, a list item, a
 * line of text): a text that is one paragraph comes without its `<p>` wrapper, e.g. `**Revoke** it` →
 * `<strong>Revoke</strong> it`; a text of several blocks keeps them.
 */
export function markdownInlineHtml(text: string, opts: MarkdownOptions = {}): string {
  const html = markdownToHtml(text, opts);
  // Any `<p>` inside the wrapper would be micromark's own (text is escaped), so one pair means one paragraph.
  return html.startsWith('<p>') && html.endsWith('</p>') && html.indexOf('<p>', 3) === -1 ? html.slice(3, -4) : html;
}
