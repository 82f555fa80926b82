/** SEC-3 on plain-HTTP addresses built from mapped input, and `http://` that is not an address (issue 14 item 5). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';

const http = (id: number, mapper: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  m(id, 'http:ActionSendData', {
    version: 3,
    mapper: { method: 'post', ...mapper },
    onerror: breakHandler(id + 100),
    ...extra,
  });
const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 2607113, maxResults: 1 } });

describe('SEC-3 plain HTTP built from mapped input', () => {
  it('fails for http://{{1.link}} as an address', () => {
    const b = bp([hook, http(2, { url: 'http://{{1.link}}/notify' })]);
    assert.deepEqual(failingIds(b, 'SEC-3'), ['2']);
    assert.match(violationOf(b, 'SEC-3')!.failing_modules[0]!.reason, /http:\/\/\{\{1\.link\}\}/);
  });
  it('passes for http:// as a filter operand (starts-with check) and inside a replace() expression', () => {
    passes(
      bp([
        hook,
        m(2, 'util:SetVariable2', {
          mapper: {
            name: 'host',
            value: '{{get(split(replace(replace(1.url; "https://"; ""); "http://"; ""); "/"); 1)}}',
          },
        }),
        http(
          3,
          { url: 'https://{{2.host}}/x' },
          { filter: { name: 'insecure link', conditions: [[{ a: '{{1.url}}', b: 'http://', o: 'text:startwith' }]] } },
        ),
      ]),
      'SEC-3',
    );
  });
});
