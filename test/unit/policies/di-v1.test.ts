/** DI-6 .. DI-11: a passing and a failing blueprint each, with the exact failing module ids. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';

describe('DI-6 iterator without aggregator', () => {
  it('warns for an iterator whose items are never aggregated', () => {
    assert.deepEqual(
      failingIds(
        bp([
          m(1, 'builtin:BasicFeeder', { mapper: { array: '{{0.items}}' } }),
          m(2, 'slack:CreateMessage', { onerror: breakHandler(9) }),
        ]),
        'DI-6',
      ),
      ['1'],
    );
  });
  it('passes when an aggregator follows, even inside a route', () => {
    passes(
      bp([
        m(1, 'builtin:BasicFeeder'),
        m(2, 'builtin:BasicRouter', {
          mapper: null,
          parameters: { else: 0 },
          routes: [{ flow: [m(3, 'builtin:BasicAggregator', { mapper: null })] }],
        }),
      ]),
      'DI-6',
    );
  });
});

describe('DI-7 unbounded repeater', () => {
  it('fails for a data-driven or huge repeat count', () => {
    assert.deepEqual(
      failingIds(
        bp([
          m(1, 'builtin:BasicRepeater', { mapper: { repeats: '{{0.pages}}' } }),
          m(2, 'builtin:BasicRepeater', { mapper: { repeats: '5000' } }),
        ]),
        'DI-7',
      ),
      ['1', '2'],
    );
  });
  it('passes for a bounded count', () => {
    passes(
      bp([
        m(1, 'builtin:BasicRepeater', { mapper: { repeats: '10' } }),
        m(2, 'builtin:BasicRepeater', { mapper: { repeats: '{{min(0.pages; 50)}}' } }),
      ]),
      'DI-7',
    );
  });
});

describe('DI-8 parallel processing of instant updates', () => {
  const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } });
  it('warns for updates in an instant, non-sequential scenario', () => {
    assert.deepEqual(
      failingIds(
        bp(
          [
            hook,
            m(2, 'google-sheets:updateRow', { onerror: breakHandler(9) }),
            m(3, 'google-sheets:addRow', { onerror: breakHandler(10) }),
          ],
          { sequential: false },
          { instant: true },
        ),
        'DI-8',
      ),
      ['2'],
    );
  });
  it('passes with sequential processing', () => {
    passes(
      bp(
        [hook, m(2, 'google-sheets:updateRow', { onerror: breakHandler(9) })],
        { sequential: true },
        { instant: true },
      ),
      'DI-8',
    );
  });
});

describe('DI-9 HTTP errors treated as success', () => {
  it('fails for handleErrors false and stopOnHttpError false', () => {
    assert.deepEqual(
      failingIds(
        bp([
          m(1, 'http:ActionSendDataAPIKeyAuth', { parameters: { auth: 1, handleErrors: false } }),
          m(2, 'http:MakeRequest', { version: 4, mapper: { url: 'https://x.example.com', stopOnHttpError: false } }),
        ]),
        'DI-9',
      ),
      ['1', '2'],
    );
  });
  it('passes when errors are errors', () => {
    passes(bp([m(1, 'http:ActionSendDataAPIKeyAuth', { parameters: { auth: 1, handleErrors: true } })]), 'DI-9');
  });
});

describe('DI-10 Break without incomplete executions', () => {
  it('fails on the module whose Break handler cannot store the run', () => {
    const v = violationOf(bp([m(2, 'google-sheets:addRow', { onerror: breakHandler(9) })], { dlq: false }), 'DI-10');
    assert.deepEqual(
      v?.failing_modules.map((f) => f.module_id),
      ['2'],
    );
  });
  it('passes with dlq on', () => {
    passes(bp([m(2, 'google-sheets:addRow', { onerror: breakHandler(9) })], { dlq: true }), 'DI-10');
  });
});

describe('DI-11 Resume without substitute output', () => {
  it('fails on the module whose Resume maps nothing while a later module reads its output', () => {
    assert.deepEqual(
      failingIds(
        bp([
          m(2, 'airtable:ActionSearchRecords', { onerror: [m(9, 'builtin:Resume', { mapper: {} })] }),
          m(3, 'slack:CreateMessage', { mapper: { text: '{{2.Name}}' }, onerror: breakHandler(10) }),
        ]),
        'DI-11',
      ),
      ['2'],
    );
  });
  it('passes when nothing after the module reads its output (its own error route reading the error does not count)', () => {
    passes(
      bp([
        m(2, 'slack:CreateMessage', {
          mapper: { text: 'New lead' },
          onerror: [
            m(8, 'google-email:sendAnEmail', { mapper: { to: ['ops@example.com'], text: '{{2.error.message}}' } }),
            m(9, 'builtin:Resume', { mapper: {} }),
          ],
        }),
        m(3, 'airtable:ActionUpdateRecords', {
          mapper: { id: 'rec1', record: { Status: 'Notified' } },
          onerror: breakHandler(10),
        }),
      ]),
      'DI-11',
    );
  });
  it('passes when Resume maps a fallback', () => {
    passes(
      bp([m(2, 'airtable:ActionSearchRecords', { onerror: [m(9, 'builtin:Resume', { mapper: { id: 'none' } })] })]),
      'DI-11',
    );
  });
});
