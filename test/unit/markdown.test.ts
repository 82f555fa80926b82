/** render/markdown: our Markdown as safe HTML (issue 30): what renders, and an XSS battery that must stay inert. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { markdownInlineHtml, markdownToHtml } from '../../src/render/markdown.js';

/**
 * Every tag the converter may write, with the only attributes it may carry. micromark escapes `<` in
 * text, so each `<` of the output opens a real tag: a tag outside this list, or with any other
 * attribute (an event handler, `src`, `style`), fails.
 */
const ALLOWED_TAG =
  /^<\/?(?:p|strong|em|code|pre|ul|ol|li|blockquote|br|hr|a)(?: href="[^"<>]*")?(?: title="[^"<>]*")?(?: class="language-[^"<>]*")?(?: start="\d+")? ?\/?>$/;

/** Asserts that `html` holds only allowed tags, and that every link goes nowhere or to http(s), mailto or a relative address. */
function assertInert(html: string, input: string): void {
  const tags = html.match(/<[^>]*>?/g) ?? [];
  for (const tag of tags) {
    assert.match(tag, ALLOWED_TAG, `tag ${tag} of ${JSON.stringify(input)}`);
    // Attribute values emptied first: a value may quote `onerror=` as inert text (its quotes are escaped).
    assert.doesNotMatch(
      tag.replace(/="[^"]*"/g, '=""'),
      /\son[a-z]+\s*=/i,
      `no event handler: ${JSON.stringify(input)}`,
    );
  }
  assert.doesNotMatch(html, /<script|<img|<svg|<iframe|<style/i, JSON.stringify(input));
  for (const [, href] of html.matchAll(/href="([^"]*)"/g))
    assert.match(href!, /^(?:$|https?:|mailto:|[^:]*$)/i, `href ${href} of ${JSON.stringify(input)}`);
}

describe('render/markdown', () => {
  it('renders bold, emphasis, code spans, lists and links', () => {
    assert.equal(
      markdownToHtml('**Revoke and rotate** every `Authorization` header'),
      '<p><strong>Revoke and rotate</strong> every <code>Authorization</code> header</p>',
    );
    assert.equal(markdownToHtml('set *Yes*'), '<p>set <em>Yes</em></p>');
    assert.equal(markdownToHtml('- one\n- two'), '<ul>\n<li>one</li>\n<li>two</li>\n</ul>');
    assert.equal(markdownToHtml('1. one\n2. two'), '<ol>\n<li>one</li>\n<li>two</li>\n</ol>');
    assert.equal(
      markdownToHtml('see [the docs](https://www.make.com/en/help)'),
      '<p>see <a href="https://www.make.com/en/help">the docs</a></p>',
    );
  });

  it('drops the paragraph wrapper of a one-paragraph text for inline places, and keeps several blocks', () => {
    assert.equal(
      markdownInlineHtml('In **HTTP** (module 1, `http:MakeRequest`), remove it.'),
      'In <strong>HTTP</strong> (module 1, <code>http:MakeRequest</code>), remove it.',
    );
    assert.equal(markdownInlineHtml('a\n\nb'), '<p>a</p>\n<p>b</p>');
    assert.equal(markdownInlineHtml(''), '');
    assert.equal(markdownInlineHtml('plain & <b>'), 'plain &amp; &lt;b&gt;');
  });

  it('leaves links as text when asked (links: false, the HTML report)', () => {
    assert.equal(
      markdownInlineHtml('see [docs](https://x.example/) or <https://y.example/>', { links: false }),
      'see [docs](https://x.example/) or &lt;https://y.example/&gt;',
    );
    assert.equal(markdownInlineHtml('**bold** `code`', { links: false }), '<strong>bold</strong> <code>code</code>');
  });

  it('leaves headings, images and indented code as text (constructs our texts never mean)', () => {
    assert.equal(markdownToHtml('# not a heading'), '<p># not a heading</p>');
    assert.equal(markdownToHtml('    not code'), '<p>not code</p>');
    assert.doesNotMatch(markdownToHtml('![pixel](https://tracker.example/p.png)'), /<img/);
  });

  const battery = [
    '<script>alert(1)</script>',
    '<SCRIPT SRC=//x.example/x.js></SCRIPT>',
    '<img src=x onerror=alert(1)>',
    '**bold** <img src=x onerror="alert(1)"> `code`',
    '<svg onload=alert(1)>',
    '<svg><script>alert(1)</script></svg>',
    '<a href="javascript:alert(1)">x</a>',
    '<iframe src="javascript:alert(1)"></iframe>',
    '<div style="background:url(javascript:alert(1))">x</div>',
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '[x](javascript&colon;alert(1))',
    '[x](&#106;avascript:alert(1))',
    '[x](&#x6A;avascript:alert(1))',
    '[x](<javascript:alert(1)>)',
    '[x]( javascript:alert(1) )',
    '[x](vbscript:msgbox(1))',
    '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '[x](data:image/svg+xml,<svg onload=alert(1)>)',
    '![x](data:image/png;base64,iVBORw0KGgo=)',
    '![x](javascript:alert(1))',
    '<javascript:alert(1)>',
    '<data:text/html,<script>alert(1)</script>>',
    '[x]: javascript:alert(1)\n\n[click][x]',
    '[ok](https://example.com "t" onmouseover="alert(1)")',
    '[ok](https://example.com "t\\" onmouseover=\\"alert(1)")',
    '```js" onload="alert(1)\ncode\n```',
    '&lt;script&gt;alert(1)&lt;/script&gt;',
    '&#60;img src=x onerror=alert(1)&#62;',
    '<!-- <script>alert(1)</script> -->',
    '<![CDATA[<script>alert(1)</script>]]>',
    '**<img src=x onerror=alert(1)>**',
    '`<img src=x onerror=alert(1)>`',
    '> <img src=x onerror=alert(1)>',
    '- <svg onload=alert(1)>',
  ];

  it('renders an XSS battery inert: no script, no element with a handler, no dangerous URL', () => {
    for (const input of battery) {
      assertInert(markdownToHtml(input), input);
      assertInert(markdownInlineHtml(input), input);
      const text = markdownToHtml(input, { links: false });
      assertInert(text, input);
      assert.doesNotMatch(text, /<a /, `no link: ${JSON.stringify(input)}`);
    }
    assert.equal(markdownToHtml('[x](javascript:alert(1))'), '<p><a href="">x</a></p>');
    assert.equal(
      markdownInlineHtml('<img src=x onerror=alert(1)>'),
      '&lt;img src=x onerror=alert(1)&gt;',
      'raw HTML is shown as text',
    );
  });

  it('stays inert on any mix of Markdown, HTML and URL fragments', () => {
    const piece = fc.constantFrom(
      '<',
      '>',
      '"',
      "'",
      '`',
      '**',
      '*',
      '_',
      '[',
      ']',
      '(',
      ')',
      '!',
      '&',
      ';',
      '#',
      ':',
      '=',
      ' ',
      '\n',
      '\t',
      '- ',
      '1. ',
      '> ',
      '```',
      'javascript:',
      'data:',
      'vbscript:',
      'alert(1)',
      'onerror=',
      'onload=',
      'img src=x',
      'script',
      'svg',
      'a href=',
      '&colon;',
      '&#106;',
      '&lt;',
      'https://x.example/',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const input = pieces.join('');
        assertInert(markdownToHtml(input), input);
        assertInert(markdownInlineHtml(input), input);
      }),
      { numRuns: 2000 },
    );
  });
});
