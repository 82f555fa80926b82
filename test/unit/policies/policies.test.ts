/** Per policy: a passing and a failing blueprint of ours, with the exact failing module ids. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateBlueprint } from '../../../src/engine/index.js';
import { bp, breakHandler, fakeToken, m } from '../../helpers/blueprints.js';

function violation(blueprint: unknown, code: string) {
  const r = evaluateBlueprint(blueprint, { scenarioId: 's1' });
  assert.ok(r.ok, r.ok ? '' : JSON.stringify(r.error));
  return r.evaluation.violations.find((v) => v.policy === code);
}
function failingIds(blueprint: unknown, code: string): string[] {
  const v = violation(blueprint, code);
  assert.ok(v, `${code} expected to fail`);
  return v.failing_modules.map((f) => f.module_id);
}
function passes(blueprint: unknown, code: string): void {
  const v = violation(blueprint, code);
  assert.equal(
    v,
    undefined,
    `${code} expected to pass, got ${JSON.stringify(v?.failing_modules.map((f) => f.reason))}`,
  );
}
const http = (id: number, mapper: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  m(id, 'http:ActionSendData', { version: 3, mapper, onerror: breakHandler(id + 100), ...extra });

describe('SEC-1 hard-coded credential', () => {
  const token = `ghp_${fakeToken(7, 36)}`;
  it('fails on a literal token in a header, naming the module and redacting the evidence', () => {
    const b = bp([
      m(1, 'util:SetVariable2', { mapper: { name: 'x', value: 'y' } }),
      http(2, { url: 'https://api.example.com', headers: [{ name: 'Authorization', value: `Bearer ${token}` }] }),
    ]);
    assert.deepEqual(failingIds(b, 'SEC-1'), ['2']);
    const f = violation(b, 'SEC-1')!.failing_modules[0]!;
    assert.equal(f.evidence?.pointer, '/flow/1/mapper/headers/0/value');
    assert.ok(!f.evidence?.value?.includes(token.slice(6)), 'evidence must not contain the secret');
    assert.equal(violation(b, 'SEC-1')!.severity, 'critical');
  });
  it('passes for mapped values and placeholders', () => {
    passes(
      bp([
        http(2, {
          url: 'https://api.example.com',
          headers: [
            { name: 'Authorization', value: 'Bearer {{9.value}}' },
            { name: 'X-Api-Key', value: 'YOUR_API_KEY' },
            { name: 'apikey', value: '[SUPABASE_ANON_KEY]' },
          ],
        }),
      ]),
      'SEC-1',
    );
  });
  it('finds credentials nested in routes and error handlers', () => {
    const b = bp([
      m(1, 'builtin:BasicRouter', {
        mapper: null,
        parameters: { else: 0 },
        routes: [
          {
            flow: [
              http(5, { url: `https://hook.eu1.make.com/${fakeToken(3, 32, 'abcdefghijklmnopqrstuvwxyz0123456789')}` }),
            ],
          },
        ],
      }),
    ]);
    assert.deepEqual(failingIds(b, 'SEC-1'), ['5']);
  });
});

describe('SEC-2 credential in URL query', () => {
  it('fails (warn) for a credential-named query parameter mapped at run time', () => {
    const b = bp([http(3, { url: 'https://api.example.com/v1?api_key={{2.value}}&q=1' })]);
    assert.deepEqual(failingIds(b, 'SEC-2'), ['3']);
    assert.equal(violation(b, 'SEC-2')!.status, 'warn');
  });
  it('leaves a literal credential in qs[] to SEC-1 (one finding per literal, issue 32), and fails for a literal SEC-1 does not find', () => {
    const b = bp([http(3, { url: 'https://api.example.com/v1', qs: [{ name: 'token', value: fakeToken(5, 24) }] })]);
    passes(b, 'SEC-2');
    assert.deepEqual(failingIds(b, 'SEC-1'), ['3']);
    // Too short for a credential-named field (SEC-1 needs 8 characters), still a literal credential in the URL.
    const short = bp([http(3, { url: 'https://api.example.com/v1', qs: [{ name: 'token', value: 'k7Q2x' }] })]);
    passes(short, 'SEC-1');
    assert.equal(violation(short, 'SEC-2')!.status, 'fail');
  });
  it('fails for a literal one in queryParameters[] of Make a request (http:MakeRequest v4) that SEC-1 does not report, not for a placeholder there', () => {
    const request = (value: string) =>
      m(3, 'http:MakeRequest', {
        version: 4,
        mapper: {
          url: 'https://api.screenshotone.com/take',
          method: 'get',
          queryParameters: [
            { name: 'token', value },
            { name: 'width', value: '500' },
          ],
        },
      });
    const v = violation(bp([request('k7Q2x')]), 'SEC-2')!;
    assert.equal(v.status, 'fail');
    assert.equal(v.failing_modules[0]!.evidence?.pointer, '/flow/0/mapper/queryParameters');
    passes(bp([request('Your API KEY')]), 'SEC-2');
  });
  it('passes when the credential is in a header', () => {
    passes(
      bp([
        http(3, {
          url: 'https://api.example.com/v1?page=2',
          headers: [{ name: 'Authorization', value: 'Bearer {{2.value}}' }],
        }),
      ]),
      'SEC-2',
    );
  });
});

describe('SEC-3 plain HTTP', () => {
  it('fails for http:// URLs in an HTTP module and in a url parameter', () => {
    const b = bp([
      m(1, 'rss:ActionReadArticles', { parameters: { url: 'http://feeds.example.com/rss.xml' } }),
      http(2, { url: 'http://api.example.com/x', method: 'post' }),
    ]);
    assert.deepEqual(failingIds(b, 'SEC-3'), ['1', '2']);
  });
  it('passes for https and for http links inside message text', () => {
    passes(
      bp([
        http(2, { url: 'https://api.example.com/x' }),
        m(3, 'slack:CreateMessage', { mapper: { text: 'see http://example.com/page' }, onerror: breakHandler(30) }),
      ]),
      'SEC-3',
    );
  });
});

describe('SEC-4 TLS verification disabled', () => {
  it('fails for rejectUnauthorized false', () => {
    assert.deepEqual(failingIds(bp([http(4, { url: 'https://x.example.com', rejectUnauthorized: false })]), 'SEC-4'), [
      '4',
    ]);
  });
  it('passes when verification is on', () => {
    passes(bp([http(4, { url: 'https://x.example.com', rejectUnauthorized: true })]), 'SEC-4');
  });
});

describe('SEC-5 unprotected webhook', () => {
  const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 1, maxResults: 1 } });
  it('fails for a webhook trigger with no secret check', () => {
    assert.deepEqual(
      failingIds(
        bp([hook, m(2, 'google-sheets:addRow', { onerror: breakHandler(20) })], {}, { instant: true }),
        'SEC-5',
      ),
      ['1'],
    );
  });
  it('passes when a filter checks a secret header', () => {
    const guarded = m(2, 'google-sheets:addRow', {
      onerror: breakHandler(20),
      filter: {
        name: 'auth',
        conditions: [[{ a: '{{1.__IMTHEADERS__[2].value}}', o: 'text:equal', b: '{{var.secret}}' }]],
      },
    });
    passes(bp([hook, guarded], {}, { instant: true }), 'SEC-5');
  });
  it('does not apply to scheduled scenarios', () => {
    passes(bp([m(1, 'google-sheets:watchRows'), m(2, 'google-sheets:addRow', { onerror: breakHandler(20) })]), 'SEC-5');
  });
});

describe('DI-1 write without error handler', () => {
  it('fails for writes and deletes without onerror, a delete at medium like a write (a failed delete leaves the data in place)', () => {
    const b = bp([
      m(1, 'google-sheets:watchRows'),
      m(2, 'google-sheets:addRow'),
      m(3, 'airtable:ActionDeleteRecords'),
      m(4, 'util:SetVariable2'),
    ]);
    assert.deepEqual(failingIds(b, 'DI-1'), ['2', '3']);
    assert.equal(violation(b, 'DI-1')!.failing_modules.find((f) => f.module_id === '3')!.severity, 'medium');
  });
  it('passes when every write has a handler', () => {
    passes(bp([m(1, 'google-sheets:watchRows'), m(2, 'google-sheets:addRow', { onerror: breakHandler(20) })]), 'DI-1');
  });
});

describe('DI-2 ignored failed write', () => {
  it('fails when a write ends its handler route in Ignore', () => {
    assert.deepEqual(
      failingIds(bp([m(2, 'airtable:ActionCreateRecord', { onerror: [m(9, 'builtin:Ignore')] })]), 'DI-2'),
      ['2'],
    );
  });
  it('passes with a Break handler, and for Ignore on a read', () => {
    passes(
      bp([
        m(2, 'airtable:ActionCreateRecord', { onerror: breakHandler(9) }),
        m(3, 'airtable:ActionSearchRecords', { onerror: [m(10, 'builtin:Ignore')] }),
      ]),
      'DI-2',
    );
  });
});

describe('DI-3 incomplete executions not stored', () => {
  it('fails when dlq is off and data is written', () => {
    const v = violation(bp([m(2, 'google-sheets:addRow', { onerror: breakHandler(9) })], { dlq: false }), 'DI-3');
    assert.equal(v?.status, 'fail');
    assert.deepEqual(v?.failing_modules, []);
    assert.equal(v?.evidence?.pointer, '/metadata/scenario/dlq');
  });
  it('passes when dlq is on', () => {
    passes(bp([m(2, 'google-sheets:addRow', { onerror: breakHandler(9) })], { dlq: true }), 'DI-3');
  });
});

describe('DI-4 data loss allowed', () => {
  it('fails when dataloss is true', () => {
    assert.equal(violation(bp([m(1, 'util:SetVariable2')], { dataloss: true }), 'DI-4')?.status, 'fail');
  });
  it('passes when dataloss is false', () => {
    passes(bp([m(1, 'util:SetVariable2')], { dataloss: false }), 'DI-4');
  });
});

describe('DI-5 router without fallback', () => {
  const route = (id: number, filtered: boolean) => ({
    flow: [
      m(
        id,
        'util:SetVariable2',
        filtered ? { filter: { name: `r${id}`, conditions: [[{ a: '{{1.x}}', o: 'exist' }]] } } : {},
      ),
    ],
  });
  it('fails when every route is filtered and no else is set', () => {
    assert.deepEqual(
      failingIds(
        bp([m(1, 'builtin:BasicRouter', { mapper: null, parameters: null, routes: [route(2, true), route(3, true)] })]),
        'DI-5',
      ),
      ['1'],
    );
  });
  it('passes with an else route or an unfiltered route', () => {
    passes(
      bp([
        m(1, 'builtin:BasicRouter', {
          mapper: null,
          parameters: { else: 1 },
          routes: [route(2, true), route(3, true)],
        }),
        m(4, 'builtin:BasicRouter', { mapper: null, routes: [route(5, true), route(6, false)] }),
      ]),
      'DI-5',
    );
  });
});

describe('ARC-1 oversized scenario', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => m(i + 1, 'util:SetVariable2'));
  it('warns above 50 modules and fails above 100', () => {
    assert.equal(violation(bp(many(60)), 'ARC-1')?.status, 'warn');
    assert.equal(violation(bp(many(101)), 'ARC-1')?.status, 'fail');
  });
  it('passes at 50 modules', () => {
    passes(bp(many(50)), 'ARC-1');
  });
});

describe('ARC-2 deep router nesting', () => {
  const nest = (depth: number, id: number): Record<string, unknown> =>
    depth === 0
      ? m(id, 'util:SetVariable2')
      : m(id, 'builtin:BasicRouter', {
          mapper: null,
          parameters: { else: 0 },
          routes: [{ flow: [nest(depth - 1, id + 1)] }],
        });
  it('flags routers at nesting level 4 and deeper', () => {
    assert.deepEqual(failingIds(bp([nest(5, 1)]), 'ARC-2'), ['4', '5']);
  });
  it('passes at three levels', () => {
    passes(bp([nest(3, 1)]), 'ARC-2');
  });
});

describe('evidence never carries a secret', () => {
  it('redacts a credential in the query of a plain-HTTP URL', () => {
    const secret = fakeToken(77, 40);
    const b = bp([http(2, { url: `http://x.example.com/data.json?auth=${secret}` })]);
    const v = violation(b, 'SEC-3')!;
    assert.ok(!JSON.stringify(v).includes(secret));
  });
});
