/**
 * @module console/components/markdown: the engine's Markdown texts (remediation steps, finding reasons,
 * violation summaries) shown rendered, through the converter the HTML report uses (src/render/markdown.ts).
 */
import { markdownInlineHtml, markdownToHtml } from '../../../src/render/markdown.js';

const NO_LINKS = { links: false } as const;

/**
 * `text` rendered as Markdown: inside a `<span>` for a place that holds phrasing content (a list item,
 * a table cell; a one-paragraph text comes without its `<p>`), else inside a `<div>` (`block`).
 * Links stay text: reasons, summaries and even remediation steps quote the blueprint (a module's label
 * is interpolated into the steps), and a link planted in a label must not become clickable beside our
 * advice. Our catalog's own texts carry no links.
 *
 * Why injecting this HTML is safe: the string given to `dangerouslySetInnerHTML` is always the output of
 * micromark with raw HTML escaped and dangerous link protocols dropped (`javascript:`, `data:`...), and
 * images switched off (src/render/markdown.ts; its XSS battery is test/unit/markdown.test.ts). No other
 * string ever reaches it, and that output carries no script, style or event handler, so it also stays
 * within the console's CSP (`script-src 'self'; style-src 'self'`).
 */
export function Markdown(props: { text: string; block?: boolean; class?: string }) {
  return props.block ? (
    <div class={props.class} dangerouslySetInnerHTML={{ __html: markdownToHtml(props.text, NO_LINKS) }} />
  ) : (
    <span class={props.class} dangerouslySetInnerHTML={{ __html: markdownInlineHtml(props.text, NO_LINKS) }} />
  );
}
