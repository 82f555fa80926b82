/**
 * SEC-1 over every string a blueprint carries (issue 14 items 3, 5, 8): our own blueprints with module
 * shapes from the corpora, fake secrets, exact module ids and evidence pointers.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, fakeToken, m } from '../../helpers/blueprints.js';
import { failingIds, findingsOf, passes, placesOf, violationOf } from '../../helpers/policy-assert.js';

const hex = '0123456789abcdef';
const HEX = '0123456789ABCDEF';
const http = (id: number, mapper: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  m(id, 'http:ActionSendData', {
    version: 3,
    mapper: { method: 'post', ...mapper },
    onerror: breakHandler(id + 100),
    ...extra,
  });
const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 2607113, maxResults: 1 } });
const pointers = (b: unknown) => violationOf(b, 'SEC-1')?.failing_modules.map((f) => f.evidence?.pointer) ?? [];
const cond = (a: string, b: string, o = 'text:equal') => ({ name: 'Authorised caller', conditions: [[{ a, b, o }]] });

describe('SEC-1 scans filters, metadata, custom keys and the scenario (item 3)', () => {
  it('fails on a ghp_ token as a module filter operand, at the operand', () => {
    const b = bp([
      hook,
      m(2, 'google-sheets:addRow', {
        filter: cond('{{1.headers.`x-github-token`}}', `ghp_${fakeToken(201, 36)}`),
        onerror: breakHandler(9),
      }),
    ]);
    assert.deepEqual(failingIds(b, 'SEC-1'), ['2']);
    assert.deepEqual(pointers(b), ['/flow/1/filter/conditions/0/0/b']);
  });
  it('fails on a sk_live_ key and a Bearer token in router route filters (on the first module of each route)', () => {
    const routes = [
      { flow: [m(3, 'slack:CreateMessage', { filter: cond('{{1.key}}', `sk_live_${fakeToken(202, 32)}`) })] },
      {
        flow: [
          m(4, 'slack:CreateMessage', { filter: cond('{{1.headers.authorization}}', `Bearer ${fakeToken(203, 40)}`) }),
        ],
      },
    ];
    const b = bp([hook, m(2, 'builtin:BasicRouter', { mapper: null, parameters: { else: 1 }, routes })]);
    assert.deepEqual(failingIds(b, 'SEC-1'), ['3', '4']);
    assert.deepEqual(pointers(b), [
      '/flow/1/routes/0/flow/0/filter/conditions/0/0/b',
      '/flow/1/routes/1/flow/0/filter/conditions/0/0/b',
    ]);
  });
  it('fails on a key in metadata.restore, in a custom-app key, and in the scenario io and samples', () => {
    const key = `AIza${fakeToken(204, 35)}`;
    const restore = {
      parameters: { __IMTCONN__: { label: `My connection (${key})`, data: { scoped: 'true', connection: 'google' } } },
    };
    const b = bp(
      [
        hook,
        m(2, 'google-sheets:addRow', { metadata: { designer: { x: 0, y: 0 }, restore }, onerror: breakHandler(9) }),
        m(3, 'util:SetVariable2', {
          credentials: { token: `xoxb-${fakeToken(205, 12, '0123456789')}-${fakeToken(206, 24)}` },
        }),
      ],
      {},
      { designer: { orphans: [], samples: { 1: { auth: `glpat-${fakeToken(207, 20)}` } } } },
    );
    b['io'] = {
      input_spec: [{ name: 'apiKey', type: 'text', default: `sk-proj-${fakeToken(208, 48)}` }],
      output_spec: [],
    };
    assert.deepEqual(pointers(b), [
      '/flow/1/metadata/restore/parameters/__IMTCONN__/label',
      '/flow/2/credentials/token',
      '/metadata/designer/samples/1/auth',
      '/io/input_spec/0/default',
    ]);
    // A sample is reported on the module it belongs to, io on the first module.
    assert.deepEqual(failingIds(b, 'SEC-1'), ['2', '3', '1', '1']);
  });
  it('passes for filters that compare with mapped values, plain words and placeholders', () => {
    passes(
      bp([
        hook,
        m(2, 'google-sheets:addRow', {
          filter: {
            name: 'Verified',
            conditions: [
              [{ a: '{{1.headers.`x-api-key`}}', b: '{{9.value}}', o: 'text:equal' }],
              [{ a: '{{1.status}}', b: 'approved', o: 'text:equal' }],
              [{ a: '{{1.token}}', b: 'YOUR_SECRET_TOKEN', o: 'text:equal' }],
            ],
          },
          onerror: breakHandler(9),
        }),
      ]),
      'SEC-1',
    );
  });
});

describe('SEC-1 finds secrets of no well-known format (item 5)', () => {
  it('fails on keys and instance tokens in URL paths, custom header secrets and a literal password', () => {
    const b = bp([
      m(1, 'http:ActionSendDataAPIKeyAuth', {
        version: 3,
        parameters: { key: 2287, handleErrors: false },
        mapper: { url: `https://v6.exchangerate-api.com/v6/${fakeToken(210, 24, hex)}/latest/USD`, method: 'get' },
      }),
      http(2, {
        url: `https://api.z-api.io/instances/${fakeToken(211, 32, HEX)}/token/${fakeToken(212, 24, HEX)}/contacts/{{1.phone}}`,
        headers: [{ name: 'Client-Token', value: `F${fakeToken(213, 32, hex)}S` }],
      }),
      http(3, {
        url: 'https://backend.example.org/api/v1/import-event',
        headers: [
          { name: 'content-type', value: 'application/json' },
          { name: 'x-webhook-secret', value: 'orchard_gate_signal_2031' },
        ],
      }),
      m(4, 'pdf-co:AddSecurityToPDF', {
        mapper: {
          url: '{{3.url}}',
          ownerPassword: `${fakeToken(214, 6)}!${fakeToken(215, 5)}#${fakeToken(216, 3)}`,
          userPassword: '{{3.security}}',
        },
      }),
    ]);
    assert.deepEqual(pointers(b), [
      '/flow/0/mapper/url',
      '/flow/1/mapper/url',
      '/flow/1/mapper/headers/0/value',
      '/flow/2/mapper/headers/1/value',
      '/flow/3/mapper/ownerPassword',
    ]);
    // A PDF's owner password protects only the document it encrypts: medium; the rest are high.
    assert.deepEqual(
      violationOf(b, 'SEC-1')!.failing_modules.map((f) => `${f.module_id}:${f.severity}`),
      ['1:high', '2:high', '2:high', '3:high', '4:medium'],
    );
  });
  it('reports a service API token high, a cloud, code-host or database credential critical, and a copy of an instance id as a place of its pair', () => {
    const instance = fakeToken(240, 32, HEX);
    const b = bp(
      [
        http(1, {
          url: 'https://api.openai.com/v1/chat/completions',
          headers: [{ name: 'Authorization', value: `Bearer sk-proj-${fakeToken(241, 48)}` }],
        }),
        http(2, {
          url: 'https://api.github.com/repos/o/r/issues',
          headers: [{ name: 'Authorization', value: `token ghp_${fakeToken(242, 36)}` }],
        }),
        http(3, { url: `https://api.z-api.io/instances/${instance}/token/${fakeToken(243, 24, HEX)}/send-text` }),
      ],
      {},
      { designer: { orphans: [], samples: { 1: { instanceId: instance } } } },
    );
    assert.deepEqual(
      violationOf(b, 'SEC-1')!.failing_modules.map((f) => `${f.module_id}:${f.severity}`),
      ['1:high', '2:critical', '3:high'],
    );
    // The instance id copied into the trigger's sample is the same credential (issue 32): one finding, two places.
    assert.deepEqual(findingsOf(b, 'SEC-1')[2]!.locations, [
      { moduleId: '3', pointer: '/flow/2/mapper/url' },
      { moduleId: '1', pointer: '/metadata/designer/samples/1/instanceId' },
    ]);
  });
  it('fails on session cookies pasted as JSON text into an app input, and on a key repeated in metadata', () => {
    const instance = fakeToken(217, 32, HEX);
    const jar = JSON.stringify(
      {
        cookie: [
          {
            domain: '.app.example.com',
            hostOnly: false,
            httpOnly: true,
            name: 'remember_token',
            path: '/',
            value: fakeToken(218, 64, hex),
          },
        ],
      },
      null,
      4,
    );
    const b = bp(
      [
        hook,
        m(2, 'apify:runActorNew', { mapper: { actorId: fakeToken(219, 17), inputBodyX: jar } }),
        http(3, { url: `https://api.z-api.io/instances/${instance}/token/${fakeToken(220, 24, HEX)}/send-text` }),
        m(4, 'google-sheets:watchRows', {
          metadata: {
            designer: { x: 0, y: 0 },
            interface: [{ name: '0', label: instance, type: 'text' }],
            restore: { expect: { columns: { nested: [{ name: 'A', label: `key ${instance}` }] } } },
          },
        }),
      ],
      {},
      { designer: { orphans: [], samples: { 1: { instanceId: instance, messageId: fakeToken(221, 32, HEX) } } } },
    );
    // One finding per credential (issue 32), at its first place; its copies (the sample, then the field
    // specs: restore `nested`, interface) are its further places, in that order.
    assert.deepEqual(pointers(b), ['/flow/1/mapper/inputBodyX', '/flow/2/mapper/url']);
    assert.deepEqual(failingIds(b, 'SEC-1'), ['2', '3']);
    assert.deepEqual(placesOf(b, 'SEC-1'), [
      '/flow/1/mapper/inputBodyX',
      '/flow/2/mapper/url',
      '/metadata/designer/samples/1/instanceId',
      '/flow/3/metadata/interface/0/label',
      '/flow/3/metadata/restore/expect/columns/nested/0/label',
    ]);
    assert.match(violationOf(b, 'SEC-1')!.failing_modules[1]!.reason, /also in module 1 scenario `metadata/);
  });
  it('passes for look-alikes: record UUIDs, 32-hex Notion ids, Drive and Sheets ids, data-store keys, hashes, images, Make ids', () => {
    passes(
      bp(
        [
          hook,
          m(2, 'datastore:GetRecord', { parameters: { datastore: 130946 }, mapper: { key: fakeToken(222, 12, hex) } }),
          http(3, {
            url: `https://api.notion.com/v1/databases/${fakeToken(223, 32, hex)}/query`,
            data: `{"workspaceId": "${fakeToken(224, 8, hex)}-c983-43c1-b2e8-${fakeToken(225, 12, hex)}", "phone": "{{1.phone}}"}`,
          }),
          m(4, 'google-sheets:addRow', {
            mapper: { spreadsheetId: `/1${fakeToken(226, 43)}`, values: { 0: '{{1.name}}' } },
          }),
          m(5, 'notion:createADatabaseItem', {
            mapper: {
              database: fakeToken(227, 32, hex),
              checksum: fakeToken(228, 64, hex),
              icon: `data:image/png;base64,iVBORw0KGgo${fakeToken(229, 120)}`,
            },
          }),
          m(6, 'apify:runActorNew', { mapper: { actorId: fakeToken(230, 17) }, parameters: { __IMTCONN__: 10377329 } }),
        ],
        {},
        {
          designer: {
            orphans: [],
            samples: { 1: { messageId: fakeToken(231, 32, HEX), instanceId: fakeToken(232, 32, HEX) } },
          },
        },
      ),
      'SEC-1',
    );
  });
});

describe('SEC-1 never reports placeholders (item 8)', () => {
  it('passes for a placeholder in a Discord webhook path and template slots elsewhere', () => {
    passes(
      bp([
        http(2, { url: 'https://discord.com/api/webhooks/1234567890/PleaseReplaceWithYourWEBHOOK' }),
        http(3, {
          url: 'https://api.example.com/v1?api_key=YOUR_API_KEY',
          headers: [
            { name: 'Authorization', value: 'Bearer <token>' },
            { name: 'x-api-key', value: 'xxxxxxxxxxxxxxxx' },
          ],
        }),
        m(4, 'util:SetVariables', {
          mapper: {
            scope: 'roundtrip',
            variables: [
              { name: 'API KEY', value: 'YOUR_API_KEY_HERE' },
              { name: 'password', value: 'changeme' },
            ],
          },
        }),
      ]),
      'SEC-1',
    );
  });
});

describe('SEC-1 severity by what the credential opens', () => {
  it('is critical for a Firebase Realtime Database secret in ?auth= and high for a service token in another query string', () => {
    const b = bp([
      http(1, { url: `https://shop-default-rtdb.firebaseio.com/users/1.json?auth=${fakeToken(301, 40)}` }),
      http(2, { url: `https://chrome.example.io/screenshot?token=${fakeToken(302, 36, hex)}` }),
    ]);
    const severities = violationOf(b, 'SEC-1')!.failing_modules.map((f) => [
      f.module_id,
      (f as { severity?: string }).severity,
    ]);
    assert.deepEqual(severities, [
      ['1', 'critical'],
      ['2', 'high'],
    ]);
  });
});
