/**
 * Issue 14 labelled set, DI family: each rule with a case that fires and a look-alike that must not.
 * Real-shaped modules (names and mapper keys of the corpus exports), our own values.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m, type Mod } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';
import type { ModuleFilter } from '../../../src/engine/blueprint/types.js';
import { routeCover } from '../../../src/engine/policies/di/route-cover.js';

const post = (id: number, url: string, data: string, extra: Record<string, unknown> = {}) =>
  m(id, 'http:ActionSendData', {
    parameters: { handleErrors: true },
    mapper: { url, method: 'post', bodyType: 'raw', contentType: 'application/json', data, headers: [], qs: [] },
    ...extra,
  });
const router = (id: number, routes: Mod[][], parameters: Record<string, unknown> | null = null) =>
  m(id, 'builtin:BasicRouter', { mapper: null, parameters, routes: routes.map((flow) => ({ flow })) });
const filter = (name: string, ...groups: Record<string, unknown>[][]) => ({ filter: { name, conditions: groups } });
const sheetWatch = m(1, 'google-sheets:watchRows', {
  mapper: { spreadsheetId: '/1abc', sheetId: 'Leads', limit: '1' },
});

describe('DI-1: a POST that only fetches is not a data change', () => {
  it('does not report a POST whose request is literal and whose answer a later module sends', () => {
    passes(
      bp([
        sheetWatch,
        post(2, 'https://tools.example.com/2FA/TOTP/', '{"secret":"ABCDEFGHIJKLMNOP"}'),
        m(3, 'slack:CreateMessage', {
          mapper: { channel: 'C1', text: 'Code {{2.data.code}}' },
          onerror: breakHandler(9),
        }),
      ]),
      'DI-1',
    );
  });
  it('reports a POST that carries run data, and a literal POST whose answer nobody reads', () => {
    assert.deepEqual(
      failingIds(
        bp([
          sheetWatch,
          post(2, 'https://api.example.com/v1/contacts', '{"email":"{{1.email}}"}'),
          post(3, 'https://api.example.com/v1/ping', '{}'),
        ]),
        'DI-1',
      ),
      ['2', '3'],
    );
  });
  it('reads a POST to a search path as a read: it is not reported', () => {
    passes(
      bp([
        sheetWatch,
        post(2, 'https://api.example.com/api/v1/news_articles/search?org={{1.org}}', '{"q":"{{1.name}}"}'),
        m(3, 'google-sheets:addRow', { mapper: { values: { 0: '{{2.data.title}}' } }, onerror: breakHandler(9) }),
      ]),
      'DI-1',
    );
  });
  it('reports a write whose error route only takes the errors its filter lets through', () => {
    const ignoreDuplicates = m(
      9,
      'builtin:Ignore',
      filter('Already reacted', [{ a: '{{2.error.message}}', b: 'already_reacted', o: 'text:contain:ci' }]),
    );
    const v = violationOf(
      bp([
        sheetWatch,
        m(2, 'slack:AddReaction', {
          mapper: { channel: 'C1', timestamp: '{{1.ts}}', name: 'white_check_mark' },
          onerror: [ignoreDuplicates],
        }),
      ]),
      'DI-1',
    );
    assert.deepEqual(
      v?.failing_modules.map((f) => f.module_id),
      ['2'],
    );
    assert.match(
      v.failing_modules[0]!.reason,
      /handles only the errors its error route's filter "Already reacted" lets through/,
    );
  });
  it('does not report a write whose error route has a filter without conditions (a label)', () => {
    passes(
      bp([
        sheetWatch,
        m(2, 'slack:CreateMessage', {
          mapper: { channel: 'C1', text: 'x' },
          onerror: [
            m(8, 'telegram:SendReplyMessage', {
              mapper: { chatId: '1', text: 'Slack failed' },
              ...filter('If channel does not work'),
            }),
            m(9, 'builtin:Break', { mapper: { count: '3', retry: true, interval: '1' } }),
          ],
        }),
      ]),
      'DI-1',
    );
  });
});

describe('DI-2: what an error route really ignores', () => {
  const reaction = (onerror: Mod[]) =>
    bp([
      sheetWatch,
      m(2, 'slack:AddReaction', { mapper: { channel: 'C1', timestamp: '{{1.ts}}', name: 'eyes' }, onerror }),
    ]);
  it('does not report an Ignore filtered to an "already done" error', () => {
    passes(
      reaction([
        m(
          9,
          'builtin:Ignore',
          filter('Already Reacted', [{ a: '{{2.error.message}}', b: 'already_reacted', o: 'text:contain:ci' }]),
        ),
      ]),
      'DI-2',
    );
  });
  it('reports an Ignore filtered to other errors, at medium: only those failures are dropped', () => {
    const v = violationOf(
      bp([
        sheetWatch,
        m(2, 'airtable:ActionCreateRecord', {
          mapper: { base: 'app1', table: 'tbl1', record: { Name: '{{1.name}}' } },
          onerror: [
            m(9, 'builtin:Ignore', filter('Data errors', [{ a: '{{2.error.type}}', b: 'DataError', o: 'text:equal' }])),
          ],
        }),
      ]),
      'DI-2',
    );
    assert.deepEqual(
      v?.failing_modules.map((f) => [f.module_id, f.severity]),
      [['2', 'medium']],
    );
  });
  it('reports an error route that ends without a directive (Make ignores the error once the route succeeds)', () => {
    const v = violationOf(
      bp([
        sheetWatch,
        m(2, 'airtable:ActionCreateRecord', {
          mapper: { base: 'app1', table: 'tbl1', record: { Name: '{{1.name}}' } },
          onerror: [
            m(8, 'slack:CreateMessage', { mapper: { channel: 'C1', text: 'Create failed: {{2.error.message}}' } }),
          ],
        }),
      ]),
      'DI-2',
    );
    assert.deepEqual(
      v?.failing_modules.map((f) => [f.module_id, f.severity]),
      [['2', 'medium']],
    );
  });
  it('does not report an error route that redoes the same write (a retry)', () => {
    passes(
      bp([
        sheetWatch,
        m(2, 'google-sheets:updateRow', {
          mapper: { rowNumber: '{{1.__ROW_NUMBER__}}', values: { 12: 'TRUE' } },
          onerror: [
            m(8, 'google-sheets:updateRow', { mapper: { rowNumber: '{{1.__ROW_NUMBER__}}', values: { 12: 'TRUE' } } }),
          ],
        }),
      ]),
      'DI-2',
    );
  });
});

describe('DI-3: a read-only scenario that answers its caller has nothing to recover', () => {
  const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 1, maxResults: 1 } });
  it('is only an observation (info) when nothing changes data and a webhook response answers', () => {
    const v = violationOf(
      bp(
        [
          hook,
          m(2, 'google-sheets:getSheetContent', {
            mapper: { spreadsheetId: '/1abc', sheetId: 'Data', range: 'A1:C9' },
          }),
          m(3, 'gateway:WebhookRespond', { mapper: { status: '200', body: '{{2.values}}' } }),
        ],
        { dlq: false },
      ),
      'DI-3',
    );
    assert.equal(v?.severity, 'info');
  });
  it('stays medium when the scenario also writes', () => {
    const v = violationOf(
      bp(
        [
          hook,
          m(2, 'google-sheets:addRow', { mapper: { values: { 0: '{{1.name}}' } } }),
          m(3, 'gateway:WebhookRespond', { mapper: { status: '200', body: 'ok' } }),
        ],
        { dlq: false },
      ),
      'DI-3',
    );
    assert.equal(v?.severity, 'medium');
  });
});

describe('DI-5: routers whose filters leave a real gap', () => {
  const upd = (id: number, f: ReturnType<typeof filter>) =>
    m(id, 'airtable:ActionUpdateRecords', {
      mapper: { id: 'rec1', record: { Count: '1' } },
      onerror: breakHandler(id + 100),
      ...f,
    });
  const create = (id: number, f: ReturnType<typeof filter>) =>
    m(id, 'airtable:ActionCreateRecord', {
      mapper: { record: { Name: '{{1.name}}' } },
      onerror: breakHandler(id + 100),
      ...f,
    });
  it('reports a case split on values with no fallback', () => {
    assert.deepEqual(
      failingIds(
        bp([
          sheetWatch,
          router(5, [
            [create(6, filter('A', [{ a: '{{1.plan}}', b: 'a', o: 'text:equal' }]))],
            [create(7, filter('B', [{ a: '{{1.plan}}', b: 'b', o: 'text:equal' }]))],
          ]),
        ]),
        'DI-5',
      ),
      ['5'],
    );
  });
  it('does not report complementary filters: exists / does not exist, and = 0 / > 0 on a length', () => {
    passes(
      bp([
        sheetWatch,
        router(5, [
          [create(6, filter('Exists', [{ a: '{{1.id}}', o: 'exist' }]))],
          [create(7, filter('Missing', [{ a: '{{1.id}}', o: 'notexist' }]))],
        ]),
      ]),
      'DI-5',
    );
    passes(
      bp([
        sheetWatch,
        router(5, [
          [create(6, filter('None', [{ a: '{{length(1.items)}}', b: '0', o: 'number:equal' }]))],
          [create(7, filter('Some', [{ a: '{{length(1.items)}}', b: '0', o: 'number:greater' }]))],
        ]),
      ]),
      'DI-5',
    );
  });
  it('does not report "= X or = Y" against "≠ X and ≠ Y", nor "= 200" against "≠ 200 (case-insensitive)"', () => {
    passes(
      bp([
        sheetWatch,
        router(5, [
          [
            create(
              6,
              filter(
                'Bundles',
                [{ a: '{{1.sku}}', b: 'I-1', o: 'text:equal' }],
                [{ a: '{{1.sku}}', b: 'I-2', o: 'text:equal' }],
              ),
            ),
          ],
          [
            create(
              7,
              filter('Regular', [
                { a: '{{1.sku}}', b: 'I-1', o: 'text:notequal' },
                { a: '{{1.sku}}', b: 'I-2', o: 'text:notequal' },
              ]),
            ),
          ],
        ]),
      ]),
      'DI-5',
    );
    passes(
      bp([
        sheetWatch,
        router(5, [
          [create(6, filter('Success', [{ a: '{{1.statusCode}}', b: '200', o: 'text:equal' }]))],
          [create(7, filter('Error', [{ a: '{{1.statusCode}}', b: '200', o: 'text:notequal:ci' }]))],
        ]),
      ]),
      'DI-5',
    );
  });
  it('does not report independent optional updates; reports the same routes when one creates a record', () => {
    const routes = (first: Mod) => [
      [first],
      [upd(7, filter('Tickets', [{ a: '{{1.sku}}', b: 'I-2', o: 'text:equal' }]))],
      [upd(8, filter('Role empty', [{ a: '{{1.role}}', o: 'notexist' }]))],
    ];
    passes(
      bp([sheetWatch, router(5, routes(upd(6, filter('Partner', [{ a: '{{1.sku}}', b: 'I-1', o: 'text:equal' }]))))]),
      'DI-5',
    );
    assert.deepEqual(
      failingIds(
        bp([
          sheetWatch,
          router(5, routes(create(6, filter('Partner', [{ a: '{{1.sku}}', b: 'I-1', o: 'text:equal' }])))),
        ]),
        'DI-5',
      ),
      ['5'],
    );
  });
  it('does not report a router whose routes are all disabled, or that has one route (a filter)', () => {
    passes(
      bp([
        sheetWatch,
        {
          ...router(5, []),
          routes: [{ flow: [create(6, filter('x', [{ a: '{{1.a}}', o: 'exist' }]))], disabled: true }],
        },
      ]),
      'DI-5',
    );
    passes(
      bp([
        sheetWatch,
        router(5, [[create(6, filter('Found', [{ a: '{{1.__IMTLENGTH__}}', b: '0', o: 'number:greater' }]))]]),
      ]),
      'DI-5',
    );
  });
  it('does not report a gap made only of named exclusions (a repost without image is skipped on purpose)', () => {
    passes(
      bp([
        sheetWatch,
        router(5, [
          [create(6, filter('With image', [{ a: '{{1.image}}', o: 'exist' }]))],
          [
            create(
              7,
              filter('Text only', [
                { a: '{{1.image}}', o: 'notexist' },
                { a: '{{1.text}}', b: '(Repost)', o: 'text:notpattern:ci' },
              ]),
            ),
          ],
        ]),
      ]),
      'DI-5',
    );
  });
  it('decides conditions on a variable set to a literal', () => {
    const setPath = m(2, 'util:SetVariable2', { mapper: { name: 'path', scope: 'roundtrip', value: '3' } });
    const routes = [1, 2, 3].map((n) => [
      create(5 + n, filter('path check', [{ a: '{{2.path}}', b: String(n), o: 'number:equal' }])),
    ]);
    passes(bp([sheetWatch, setPath, router(5, routes)]), 'DI-5');
    assert.deepEqual(
      failingIds(
        bp([
          sheetWatch,
          m(2, 'util:SetVariable2', { mapper: { name: 'path', scope: 'roundtrip', value: '{{1.path}}' } }),
          router(5, routes),
        ]),
        'DI-5',
      ),
      ['5'],
    );
  });
  it('does not report a dispatch on a status this scenario itself sets to other values', () => {
    const status = (id: number, b: string, value: string) => [
      m(id, 'google-sheets:updateRow', {
        mapper: { rowNumber: '{{1.__ROW_NUMBER__}}', values: { 1: value } },
        onerror: breakHandler(id + 100),
        ...filter(b, [{ a: '{{1.`1`}}', b, o: 'text:equal' }]),
      }),
    ];
    passes(
      bp([
        sheetWatch,
        router(5, [status(6, 'content generation', 'generated'), status(7, 'ready to post', 'posting complete')]),
      ]),
      'DI-5',
    );
    assert.deepEqual(
      failingIds(
        bp([
          sheetWatch,
          router(5, [
            status(6, 'content generation', 'ready to post'),
            status(7, 'ready to post', 'content generation'),
          ]),
        ]),
        'DI-5',
      ),
      ['5'],
    );
  });
  it('does not report routes that set a "handled" flag a later route checks', () => {
    const flag = (id: number) =>
      m(id, 'util:SetVariable2', { mapper: { name: 'Response Sent', scope: 'roundtrip', value: '{{true}}' } });
    const inner = router(10, [
      [create(11, filter('Ids', [{ a: '{{1.id}}', o: 'exist' }])), flag(12)],
      [create(13, filter('Template', [{ a: '{{1.template}}', b: '{{true}}', o: 'boolean:equal' }])), flag(14)],
    ]);
    const fallback = [
      m(20, 'util:GetVariable2', { mapper: { name: 'Response Sent' } }),
      m(21, 'gateway:WebhookRespond', {
        mapper: { status: '401', body: 'Not Success' },
        ...filter('Not sent', [{ a: '{{20.`Response Sent`}}', b: '{{true}}', o: 'boolean:notequal' }]),
      }),
    ];
    passes(bp([sheetWatch, router(5, [[inner], fallback])]), 'DI-5');
    assert.deepEqual(
      failingIds(
        bp([sheetWatch, router(5, [[inner], [m(20, 'util:GetVariable2', { mapper: { name: 'Other' } })]])]),
        'DI-5',
      ),
      ['10'],
    );
  });
});

describe('DI-6: a one-item literal array emits one bundle', () => {
  it('does not report an iterator over ["{{1.text}}"]; reports a mapped array and two listed items', () => {
    passes(
      bp([
        sheetWatch,
        m(2, 'builtin:BasicFeeder', { mapper: { array: ['{{1.text}}'] } }),
        m(3, 'slack:CreateMessage', { mapper: { text: '{{2.value}}' }, onerror: breakHandler(9) }),
      ]),
      'DI-6',
    );
    assert.deepEqual(
      failingIds(
        bp([
          sheetWatch,
          m(2, 'builtin:BasicFeeder', { mapper: { array: '{{1.items}}' } }),
          m(3, 'builtin:BasicFeeder', { mapper: { array: ['{{1.a}}', '{{1.b}}'] } }),
        ]),
        'DI-6',
      ),
      ['2', '3'],
    );
  });
});

describe('DI-8: which instant updates can collide', () => {
  const cellsTrigger = m(2, 'google-sheets:watchUpdatedCells', { parameters: { __IMTHOOK__: 5 } });
  const scenario = (flow: Mod[]) => bp(flow, { sequential: false }, { instant: true });
  it('does not report an update of the triggering row to literal values', () => {
    passes(
      scenario([
        cellsTrigger,
        m(9, 'google-sheets:updateRow', {
          mapper: { sheetId: 'Hoja 1', rowNumber: '{{2.range.rowStart}}', values: { 5: 'Publicado' } },
          onerror: breakHandler(19),
        }),
      ]),
      'DI-8',
    );
  });
  it('reports an update of the triggering row with run data, and an HTTP PATCH', () => {
    const patch = m(10, 'http:ActionSendData', {
      parameters: { handleErrors: true },
      mapper: {
        url: 'https://db.example.com/users/{{2.user}}.json',
        method: 'patch',
        data: '{"tokens":"{{sum(2.tokens; -1)}}"}',
      },
      onerror: breakHandler(20),
    });
    assert.deepEqual(
      failingIds(
        scenario([
          cellsTrigger,
          m(9, 'google-sheets:updateRow', {
            mapper: { rowNumber: '{{2.range.rowStart}}', values: { 3: '{{2.text}}' } },
            onerror: breakHandler(19),
          }),
          patch,
        ]),
        'DI-8',
      ),
      ['9', '10'],
    );
  });
});

describe('DI-9: error statuses the scenario handles, and lost notifications', () => {
  const get = m(3, 'http:ActionSendDataOAuth', {
    parameters: { account: 1, handleErrors: false },
    mapper: { url: 'https://script.googleapis.com/v1/projects/p1/content', method: 'get' },
  });
  const alert = m(11, 'http:ActionSendData', {
    parameters: { handleErrors: false },
    mapper: { url: 'https://hook.eu1.make.com/abc', method: 'post', data: 'failed' },
    ...filter('Error', [{ a: '{{3.statusCode}}', b: '200', o: 'text:notequal:ci' }]),
  });
  const ok = m(4, 'google-sheets:addRow', {
    mapper: { values: { 0: '{{3.data}}' } },
    onerror: breakHandler(14),
    ...filter('Success', [{ a: '{{3.statusCode}}', b: '200', o: 'text:equal' }]),
  });
  it('does not report a call whose statusCode a later filter checks; the alert on the error branch is low', () => {
    const v = violationOf(bp([sheetWatch, get, router(10, [[ok], [alert]])]), 'DI-9');
    assert.deepEqual(
      v?.failing_modules.map((f) => [f.module_id, f.severity]),
      [['11', 'low']],
    );
  });
  it('keeps an unread data write medium', () => {
    const v = violationOf(
      bp([
        sheetWatch,
        m(3, 'http:ActionSendData', {
          parameters: { handleErrors: false },
          mapper: { url: 'https://x.supabase.co/rest/v1/invoices', method: 'post', data: '{"n":"{{1.n}}"}' },
        }),
      ]),
      'DI-9',
    );
    assert.deepEqual(
      v?.failing_modules.map((f) => [f.module_id, f.severity]),
      [['3', 'medium']],
    );
  });
});

describe('routeCover reads filters as propositions', () => {
  const f = (...groups: Record<string, string>[][]): ModuleFilter => ({ name: '', conditions: groups });
  it('knows that a date is not both before and after a value, and that a boolean is true or false', () => {
    assert.equal(
      routeCover([
        f([{ a: '{{1.ts}}', b: '{{2.check}}', o: 'date:greaterorequal' }]),
        f([{ a: '{{1.ts}}', b: '{{2.check}}', o: 'date:lessorequal' }]),
      ])?.complete,
      true,
    );
    assert.equal(
      routeCover([
        f([{ a: '{{3.exist}}', b: 'false', o: 'text:equal' }]),
        f([{ a: '{{3.exist}}', b: 'true', o: 'text:equal' }]),
      ])?.complete,
      true,
    );
    assert.equal(
      routeCover([f([{ a: '{{3.kind}}', b: 'a', o: 'text:equal' }]), f([{ a: '{{3.kind}}', b: 'b', o: 'text:equal' }])])
        ?.complete,
      false,
    );
  });
  it("knows that a module's bundle count is at least 1 where one of its bundles is read", () => {
    assert.equal(
      routeCover([
        f([{ a: '{{1.`__IMTLENGTH__`}}', b: '0', o: 'text:notequal:ci' }]),
        f([{ a: '{{1.`__IMTINDEX__`}}', b: '{{1.`__IMTLENGTH__`}}', o: 'text:equal' }]),
      ])?.complete,
      true,
    );
  });
  it('tells overlapping routes from a case split', () => {
    assert.equal(
      routeCover([
        f([{ a: '{{1.sku}}', b: 'I-1', o: 'text:equal' }]),
        f([{ a: '{{1.sku}}', b: 'I-2', o: 'text:equal' }]),
      ])?.overlapping,
      false,
    );
    assert.equal(
      routeCover([f([{ a: '{{1.sku}}', b: 'I-1', o: 'text:equal' }]), f([{ a: '{{1.role}}', o: 'notexist' }])])
        ?.overlapping,
      true,
    );
  });
  it('gives up beyond its proposition budget', () => {
    const many = Array.from({ length: 13 }, (_, i) => f([{ a: `{{1.f${i}}}`, o: 'exist' }]));
    assert.equal(routeCover(many), null);
  });
});
