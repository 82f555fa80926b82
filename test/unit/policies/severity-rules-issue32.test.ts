/**
 * Issue 32, rules below high revealed by the in-sample labels (DI-1, DI-3, DI-6, DI-7, DI-8, DI-9,
 * ARC-6, ARC-8, ARC-10, OPS-1): each rule with a case it changes and a look-alike it must leave alone.
 * Our own small blueprints with the module names and mapper keys of Make exports; no corpus values.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m, type Mod } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';

/** `[module id, severity]` of each finding of `code`. */
const severities = (b: unknown, code: string) =>
  violationOf(b, code)!.failing_modules.map((f) => [f.module_id, f.severity]);
const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 11, maxResults: 1 }, mapper: null });
const sheetWatch = m(1, 'google-sheets:watchRows', {
  mapper: { spreadsheetId: '/1abc', sheetId: 'Orders', limit: '1' },
});
const http = (id: number, method: string, url: string, extra: Record<string, unknown> = {}) =>
  m(id, 'http:ActionSendData', {
    parameters: { handleErrors: false },
    mapper: { url, method, headers: [], qs: [], bodyType: '', ...extra },
  });
const router = (id: number, routes: Mod[][]) =>
  m(id, 'builtin:BasicRouter', { mapper: null, parameters: null, routes: routes.map((flow) => ({ flow })) });
const filter = (name: string, ...groups: Record<string, unknown>[][]) => ({ filter: { name, conditions: groups } });
const addRow = (id: number, extra: Record<string, unknown> = {}) =>
  m(id, 'google-sheets:addRow', {
    parameters: { __IMTCONN__: 7 },
    mapper: { spreadsheetId: '/1abc', sheetId: 'Log', values: { 0: '{{1.name}}' } },
    ...extra,
  });

describe('DI-7: a count of a record’s fields is bounded by its shape', () => {
  it('reports a repeat count of an object’s keys low, and a count taken from data medium', () => {
    const b = bp([
      sheetWatch,
      m(2, 'builtin:BasicRepeater', { mapper: { start: '1', step: '1', repeats: '{{length(keys(1.fields)) - 2}}' } }),
      m(3, 'builtin:BasicRepeater', { mapper: { start: '1', step: '1', repeats: '{{length(1.items)}}' } }),
    ]);
    assert.deepEqual(severities(b, 'DI-7'), [
      ['2', 'low'],
      ['3', 'medium'],
    ]);
    assert.match(violationOf(b, 'DI-7')!.failing_modules[0]!.reason, /number of fields of a record/);
  });
});

describe('DI-6: an iterator over literal text splits nothing', () => {
  it('does not report an iterator whose array is text with no mapping', () => {
    passes(bp([sheetWatch, m(2, 'builtin:BasicFeeder', { mapper: { array: 'items[]' } }), addRow(3)]), 'DI-6');
  });
  it('still reports an iterator over a mapped array', () => {
    assert.deepEqual(
      failingIds(
        bp([sheetWatch, m(2, 'builtin:BasicFeeder', { mapper: { array: '{{1.items}}' } }), addRow(3)]),
        'DI-6',
      ),
      ['2'],
    );
  });
});

describe('ARC-8: an empty filter whose name repeats a gate already passed', () => {
  const gate = (name: string) => filter(name, [{ a: '{{1.kind}}', b: 'second', o: 'text:equal' }]);
  it('is a label when every word of its name is in the earlier gate’s name', () => {
    passes(
      bp([sheetWatch, router(2, [[addRow(3, gate('Second connection')), addRow(4, filter('if second'))]])]),
      'ARC-8',
    );
  });
  it('is reported when its name promises something the earlier gate does not test', () => {
    assert.deepEqual(
      failingIds(
        bp([sheetWatch, router(2, [[addRow(3, gate('Second connection')), addRow(4, filter('only paid orders'))]])]),
        'ARC-8',
      ),
      ['4'],
    );
  });
});

describe('ARC-6: empty slots and modules without any setting', () => {
  it('reports an app module exported with empty parameters and mapper', () => {
    const b = bp([m(1, 'openai-gpt-3:CreateCompletion', { parameters: {}, mapper: {} }), addRow(2)]);
    assert.deepEqual(severities(b, 'ARC-6'), [['1', 'medium']]);
    assert.match(violationOf(b, 'ARC-6')!.failing_modules[0]!.reason, /no connection and no field set/);
  });
  it('does not report a Make tool that takes no settings (a subscenario start)', () => {
    passes(bp([m(1, 'scenario-service:StartSubscenario', { parameters: {}, mapper: {} }), addRow(2)]), 'ARC-6');
  });
  it('reports an empty slot before configured modules low: it does nothing', () => {
    const b = bp([sheetWatch, router(2, [[m(5, 'placeholder:Placeholder', { mapper: null }), addRow(3)]])]);
    assert.deepEqual(severities(b, 'ARC-6'), [['5', 'low']]);
  });
});

describe('ARC-10: a question-mark value and a "your…" address are placeholders', () => {
  it('reports `???` in a credential header and `youremail@domain.com` as a recipient', () => {
    const b = bp([
      sheetWatch,
      http(2, 'get', 'https://api.example.com/news', {
        headers: [{ name: 'X-API-KEY', value: '???' }],
      }),
      m(3, 'google-email:sendAnEmail', {
        parameters: { __IMTCONN__: 7 },
        mapper: { to: ['youremail@domain.com'], subject: 'Alert', content: '{{2.data}}' },
      }),
    ]);
    assert.deepEqual(failingIds(b, 'ARC-10'), ['2', '3']);
  });
  it('does not report a real address or a question in free text', () => {
    passes(
      bp([
        sheetWatch,
        m(3, 'google-email:sendAnEmail', {
          parameters: { __IMTCONN__: 7 },
          mapper: { to: ['ops@acme-corp.com'], subject: 'Anything new???', content: '??' },
        }),
      ]),
      'ARC-10',
    );
  });
});

describe('DI-8: a Make data-store record is shared by parallel runs', () => {
  const upsert = m(3, 'datastore:UpdateRecord', {
    parameters: { datastore: 5 },
    mapper: { key: 'chat-{{1.phone}}', upsert: true, data: { history: '{{2.history}} {{1.text}}' } },
  });
  const read = m(2, 'datastore:GetRecord', { parameters: { datastore: 5 }, mapper: { key: 'chat-{{1.phone}}' } });
  it('reports a data-store update in an instant scenario without sequential processing', () => {
    assert.deepEqual(failingIds(bp([hook, read, upsert], { sequential: false }), 'DI-8'), ['3']);
  });
  it('passes with sequential processing on', () => {
    passes(bp([hook, read, upsert], { sequential: true }), 'DI-8');
  });
});

describe('DI-9: a read that runs after another call’s status check', () => {
  const statusIs = (id: number, code: string) =>
    filter('Written', [{ a: `{{${id}.statusCode}}`, b: code, o: 'text:equal' }]);
  it('is low when gated on an earlier call’s status; an ungated read stays medium', () => {
    const b = bp([
      sheetWatch,
      http(2, 'get', 'https://api.example.com/items/{{1.id}}'),
      http(3, 'patch', 'https://api.example.com/items/{{1.id}}', { data: '{"name":"{{2.data.name}}"}' }),
      router(4, [
        [
          { ...http(5, 'get', 'https://api.example.com/items/{{1.id}}'), ...statusIs(3, '204') },
          addRow(6, { mapper: { spreadsheetId: '/1abc', values: { 0: '{{5.data.name}}' } } }),
        ],
        [addRow(7, { ...filter('Failed', [{ a: '{{3.statusCode}}', b: '204', o: 'text:notequal' }]) })],
      ]),
    ]);
    assert.deepEqual(severities(b, 'DI-9'), [
      ['2', 'medium'],
      ['5', 'low'],
    ]);
  });
});

describe('DI-1: POSTs that only fetch, and the last step of a route', () => {
  it('does not report an OAuth token request, whatever it maps', () => {
    passes(
      bp([
        m(1, 'datastore:GetRecord', { parameters: { datastore: 5 }, mapper: { key: 'conn' } }),
        http(2, 'post', '{{1.authUrl}}/{{1.tenant}}/oauth2/token', {
          bodyType: 'x_www_form_urlencoded',
          formFields: [
            { key: 'client_id', value: '{{1.clientId}}' },
            { key: 'client_secret', value: '{{1.clientSecret}}' },
            { key: 'grant_type', value: 'client_credentials' },
          ],
        }),
        m(3, 'util:SetVariable2', { mapper: { name: 'token', value: '{{2.data.access_token}}' } }),
      ]),
      'DI-1',
    );
  });
  it('does not report a POST whose only mappings are the base address and a bearer token, when its answer is read', () => {
    passes(
      bp([
        m(1, 'datastore:GetRecord', { parameters: { datastore: 5 }, mapper: { key: 'conn' } }),
        http(2, 'post', '{{1.baseUrl}}/contextinfo', {
          headers: [{ name: 'Authorization', value: 'Bearer {{1.token}}' }],
        }),
        m(3, 'util:SetVariable2', { mapper: { name: 'digest', value: '{{2.data.digest}}' } }),
      ]),
      'DI-1',
    );
  });
  it('reports a POST that carries run data in its path or body', () => {
    assert.deepEqual(
      failingIds(
        bp([
          m(1, 'datastore:GetRecord', { parameters: { datastore: 5 }, mapper: { key: 'conn' } }),
          http(2, 'post', '{{1.baseUrl}}/items/{{1.itemId}}/approve', {
            headers: [{ name: 'Authorization', value: 'Bearer {{1.token}}' }],
          }),
          m(3, 'util:SetVariable2', { mapper: { name: 'state', value: '{{2.data.state}}' } }),
        ]),
        'DI-1',
      ),
      ['2'],
    );
  });
  const sms = (id: number) =>
    m(id, 'twilio:SendSMS', { parameters: { __IMTCONN__: 7 }, mapper: { to: '{{1.phone}}', body: 'Booked' } });
  it('reports a send that is the last step of its route low, one with a step after it medium', () => {
    const b = bp(
      [
        sheetWatch,
        addRow(2, { onerror: breakHandler(8) }),
        router(3, [[sms(4)], [sms(5), addRow(6, { onerror: breakHandler(9) })]]),
      ],
      {
        dlq: false,
      },
    );
    assert.deepEqual(severities(b, 'DI-1'), [
      ['4', 'low'],
      ['5', 'medium'],
    ]);
    assert.match(
      violationOf(b, 'DI-1')!.failing_modules[0]!.reason,
      /last step of its route: a failure loses only this message/,
    );
  });
  it('keeps a last send medium when it runs once per item of an iterator', () => {
    const b = bp([sheetWatch, m(2, 'builtin:BasicFeeder', { mapper: { array: '{{1.items}}' } }), sms(3)], {
      dlq: false,
    });
    assert.deepEqual(severities(b, 'DI-1'), [['3', 'medium']]);
  });
  it('reports a last write low when incomplete executions are stored, medium when they are not', () => {
    const flow = [hook, addRow(2)];
    assert.deepEqual(severities(bp(flow, { dlq: true }), 'DI-1'), [['2', 'low']]);
    assert.deepEqual(severities(bp(flow, { dlq: false }), 'DI-1'), [['2', 'medium']]);
  });
});

describe('DI-3: alerts to fixed recipients are not data changes', () => {
  const respond = m(4, 'gateway:WebhookRespond', { mapper: { status: '200', body: '{{2.result}}' } });
  const alert = (to: string) =>
    m(3, 'google-email:sendAnEmail', {
      parameters: { __IMTCONN__: 7 },
      mapper: { to: [to], subject: 'Flagged', content: '{{2.result}}' },
    });
  const ai = m(2, 'openai-gpt-3:CreateCompletion', {
    parameters: { __IMTCONN__: 8 },
    mapper: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: '{{1.text}}' }] },
  });
  it('is an observation (info) for a responder whose only change alerts a fixed mailbox', () => {
    const v = violationOf(bp([hook, ai, alert('ops@acme-corp.com'), respond], { dlq: false }), 'DI-3');
    assert.equal(v?.severity, 'info');
    assert.match(v.summary, /only alerts fixed recipients/);
  });
  it('stays medium when the message goes to a recipient taken from the data', () => {
    const v = violationOf(bp([hook, ai, alert('{{1.email}}'), respond], { dlq: false }), 'DI-3');
    assert.equal(v?.severity, 'medium');
  });
});

describe('OPS-1: a scheduled read that only appends new records', () => {
  const weather = m(1, 'weather:ActionGetCurrentWeather', { parameters: { __IMTCONN__: 3 }, mapper: { city: 'Lyon' } });
  it('is low: a failed run loses entries and leaves nothing half-done', () => {
    const v = violationOf(bp([weather, addRow(2)]), 'OPS-1');
    assert.equal(v?.severity, 'low');
    assert.match(v.summary, /reads on a schedule and only appends new records/);
  });
  it('stays medium for a watch trigger, an update, or a change after the append', () => {
    assert.equal(violationOf(bp([sheetWatch, addRow(2)]), 'OPS-1')?.severity, 'medium');
    const update = m(2, 'google-sheets:updateRow', {
      parameters: { __IMTCONN__: 7 },
      mapper: { spreadsheetId: '/1abc', rowNumber: '2', values: { 0: '{{1.temp}}' } },
    });
    assert.equal(violationOf(bp([weather, update]), 'OPS-1')?.severity, 'medium');
    assert.equal(violationOf(bp([weather, addRow(2), addRow(3)]), 'OPS-1')?.severity, 'medium');
  });
});
