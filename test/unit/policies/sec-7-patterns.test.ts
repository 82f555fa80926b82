/**
 * SEC-7 (issue 32): a fixed pattern is not code. A regular expression the author wrote as a literal,
 * run over untrusted text, is not reported; a pattern built from untrusted data is (low); code fed
 * untrusted input stays high; a code-suite action that runs no program is not code.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, m } from '../../helpers/blueprints.js';
import { passes, violationOf } from '../../helpers/policy-assert.js';

const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } });
/** A literal page of the author's own site: a fetched page, untrusted (`sources.ts`). */
const page = m(1, 'http:ActionSendData', { mapper: { url: 'https://www.example.com/team', method: 'get' } });

function severities(flow: ReturnType<typeof m>[]): [string, string][] {
  const v = violationOf(bp(flow), 'SEC-7');
  assert.ok(v, 'SEC-7 expected to report');
  return v.failing_modules.map((f) => [f.module_id, f.severity]);
}

describe('SEC-7 patterns and code', () => {
  it('passes a literal Text parser pattern over a fetched page and over a webhook payload', () => {
    const parser = (id: number, text: string) =>
      m(id, 'regexp:Parser', { parameters: { pattern: 'Name: (.*)', global: true }, mapper: { text } });
    passes(bp([page, parser(2, '{{1.data}}')]), 'SEC-7');
    passes(bp([hook, parser(2, '{{1.body}}')]), 'SEC-7');
  });

  it('passes a code suite regex action with a literal pattern', () => {
    passes(
      bp([hook, m(2, '0codekit:RegexMatch', { mapper: { pattern: '^[A-Z]{2}\\d+$', text: '{{1.order}}' } })]),
      'SEC-7',
    );
  });

  it('reports a pattern built from webhook data as low, in a Text parser and in a code suite action', () => {
    assert.deepEqual(
      severities([
        hook,
        m(2, 'regexp:AdvancedParser', { mapper: { pattern: '(?<={{1.prefix}})\\w+', text: 'fixed text' } }),
        m(3, '0codekit:RegexMatch', { mapper: { pattern: '{{1.filter}}', text: 'abc' } }),
      ]),
      [
        ['2', 'low'],
        ['3', 'low'],
      ],
    );
  });

  it('keeps general-purpose code fed webhook input high', () => {
    assert.deepEqual(
      severities([
        hook,
        m(2, 'custom-js:execute', {
          parameters: { jscode: 'return input.toUpperCase()' },
          mapper: { input: '{{1.x}}' },
        }),
      ]),
      [['2', 'high']],
    );
  });

  it('does not count a code suite utility that runs no program (a PDF conversion) as code', () => {
    passes(bp([hook, m(2, '0codekit:HtmlToPdf', { mapper: { html: '{{1.html}}' } })]), 'SEC-7');
  });
});
