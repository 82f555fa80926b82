/**
 * ARC-10 (issue 14, item 4): template placeholders where a connection, id, address or credential
 * must be; placeholders in free text are not configuration. SEC-1 never reports the same values.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';
import { embeddedPlaceholder, wholePlaceholder } from '../../../src/engine/placeholders.js';
import { isPlaceholder, scanForSecrets } from '../../../src/engine/secrets/scan.js';

const trigger = m(1, 'google-sheets:watchRows', {
  version: 2,
  parameters: {
    __IMTCONN__: 7920371,
    spreadsheetId: '/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms',
    sheetId: 'Leads',
    limit: 10,
  },
});
const addRow = (id: number, conn: unknown, spreadsheetId: string) =>
  m(id, 'google-sheets:addRow', {
    version: 2,
    parameters: { __IMTCONN__: conn },
    mapper: {
      from: 'drive',
      mode: 'select',
      spreadsheetId,
      sheetId: 'Leads',
      insertDataOption: 'INSERT_ROWS',
      valueInputOption: 'USER_ENTERED',
      values: { 0: '{{1.`0`}}' },
    },
    onerror: breakHandler(id + 100),
  });
const http = (id: number, mapper: Record<string, unknown>, type = 'http:ActionSendData') =>
  m(id, type, { version: 3, mapper: { method: 'post', ...mapper }, onerror: breakHandler(id + 100) });

/** Real placeholder shapes (corpus make-extra MANIFEST category 4, FORMAT.md). */
const CREDENTIAL_PLACEHOLDERS = [
  'YOUR_ANTHROPIC_API_KEY',
  'Your API KEY',
  '[SUPABASE_ANON_KEY]',
  'your-api-key-here',
  'Bearer YOUR_GROQ_API_KEY',
  'YOUR_API_KEY_HERE',
  'PleaseReplaceWithYourApiKey',
  '<API_TOKEN>',
  'xxxxxxxxxxxx',
];

describe('ARC-10 unconfigured template', () => {
  it('reports connection, id, recipient, address and credential slots holding placeholders, one finding per module', () => {
    const blueprint = bp([
      trigger,
      addRow(2, 'YOUR_CONNECTION_ID', '/YOUR_SPREADSHEET_ID'),
      m(3, 'telegram:SendReplyMessage', {
        parameters: { __IMTCONN__: 55 },
        mapper: { chatId: 'Your Telegram chatId', text: 'New lead {{1.`0`}}' },
        onerror: breakHandler(103),
      }),
      http(
        4,
        {
          url: 'https://api.anthropic.com/v1/messages',
          headers: [{ name: 'x-api-key', value: 'YOUR_ANTHROPIC_API_KEY' }],
          data: '{"model":"claude-3-5-haiku-latest"}',
        },
        'http:MakeRequest',
      ),
      m(5, 'slack:CreateMessage', {
        parameters: { __IMTCONN__: '<CONNECTION_ID>' },
        mapper: { channel: '<SLACK_CHANNEL_ID>', text: 'Done' },
        onerror: breakHandler(105),
      }),
      http(6, { url: 'https://hook.YOUR_MAKE_ZONE.make.com/abc' }),
      m(7, 'util:SetVariables', {
        mapper: {
          variables: [
            { name: 'API KEY', value: 'PleaseReplaceWithYourApiKey' },
            { name: 'greeting', value: 'Hello' },
          ],
          scope: 'roundtrip',
        },
      }),
      m(8, 'google-email:sendAnEmail', {
        parameters: { __IMTCONN__: 77 },
        mapper: { to: ['YOUR_EMAIL@example.com'], subject: 'New lead', content: 'Hi', bodyType: 'rawHtml' },
        onerror: breakHandler(108),
      }),
      m(9, 'gateway:WebhookRespond', { parameters: {}, mapper: { status: '200', body: 'ok' } }),
    ]);
    assert.deepEqual(failingIds(blueprint, 'ARC-10'), ['2', '3', '4', '5', '6', '7', '8']);
    const v = violationOf(blueprint, 'ARC-10')!;
    assert.equal(v.status, 'fail');
    assert.equal(v.severity, 'medium');
    assert.match(
      v.failing_modules[0]!.reason,
      /`parameters\.__IMTCONN__` holds `YOUR_CONNECTION_ID` instead of a connection/,
    );
    assert.equal(
      v.failing_modules[4]!.evidence?.value,
      'YOUR_MAKE_ZONE',
      'only the marker is shown, never the URL around it',
    );
    assert.equal(v.failing_modules[4]!.evidence?.pointer, '/flow/5/mapper/url');
  });

  it('never lets SEC-1 report a placeholder credential slot', () => {
    for (const value of CREDENTIAL_PLACEHOLDERS) {
      assert.ok(isPlaceholder(value.replace(/^Bearer /, '')), value);
      assert.deepEqual(scanForSecrets(value, 'x-api-key'), [], value);
      assert.ok(wholePlaceholder(value) ?? embeddedPlaceholder(value), `ARC-10 recognises ${value}`);
    }
    const blueprint = bp([
      trigger,
      http(2, {
        url: 'https://api.groq.com/openai/v1/chat/completions',
        headers: [
          { name: 'Authorization', value: 'Bearer YOUR_GROQ_API_KEY' },
          { name: 'apikey', value: 'PleaseReplaceWithYourApiKey' },
        ],
      }),
    ]);
    passes(blueprint, 'SEC-1');
    assert.deepEqual(failingIds(blueprint, 'ARC-10'), ['2']);
  });

  it('reports an upper-snake name of what belongs in the slot (RECIPIENT_WALLET_ADDRESS), not other upper-case values', () => {
    const send = (id: number, to: string) =>
      m(id, 'util:SetVariables', {
        mapper: {
          scope: 'roundtrip',
          variables: [
            { name: 'chain', value: 'solana' },
            { name: 'to', value: to },
            { name: 'amount', value: '1000000000' },
          ],
        },
      });
    assert.deepEqual(failingIds(bp([trigger, send(2, 'RECIPIENT_WALLET_ADDRESS')]), 'ARC-10'), ['2']);
    assert.equal(wholePlaceholder('SLACK_CHANNEL_ID'), 'SLACK_CHANNEL_ID');
    for (const value of ['INSERT_ROWS', 'USER_ENTERED', 'ACTIVE', 'RAW', 'ORDER_STATUS', 'X_API'])
      assert.equal(wholePlaceholder(value), null, value);
    passes(bp([trigger, send(2, '0x52908400098527886E0F7030069857D2E4169EE7')]), 'ARC-10');
  });

  it('reports an emptied bearer token', () => {
    assert.deepEqual(
      failingIds(
        bp([
          trigger,
          http(2, { url: 'https://api.vapi.ai/call/phone', headers: [{ name: 'Authorization', value: 'Bearer ' }] }),
        ]),
        'ARC-10',
      ),
      ['2'],
    );
  });

  it('passes look-alikes: free text, template markers a module replaces, enum values, real ids, mapped and optional references', () => {
    passes(
      bp([
        trigger,
        addRow(2, 7920371, '/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms'),
        m(3, 'openai-gpt-3:CreateCompletion', {
          parameters: { __IMTCONN__: 1234 },
          mapper: {
            model: 'gpt-4o-mini',
            messages: [{ role: 'user', content: 'YOUR_NAME here: write a reply to {{1.`2`}}' }],
          },
          onerror: breakHandler(103),
        }),
        m(4, 'google-email:ActionSendEmail', {
          parameters: { account: 99 },
          mapper: {
            to: ['team@example.com'],
            subject: 'Your order has been confirmed',
            html: 'Hello,\n\nCheers\n<YOUR_NAME>',
          },
          onerror: breakHandler(104),
        }),
        m(5, 'google-docs:replaceATextInADocument', {
          parameters: { __IMTCONN__: 5 },
          mapper: { document: '{{6.id}}', replaceText: [{ oldText: '[PROJECT_TYPE]', newText: '{{1.`3`}}' }] },
          onerror: breakHandler(105),
        }),
        m(6, 'handlebars:Compile', {
          mapper: {
            template: '{{7.data}}',
            variables: [
              { key: 'issuer_name', value: 'YOUR_NAME' },
              { key: 'issuer_email', value: 'YOUR_EMAIL' },
            ],
          },
        }),
        m(7, 'http:MakeRequest', {
          version: 4,
          parameters: { proxyKeychain: '' },
          mapper: { url: 'https://example.com/click-here', method: 'get' },
          onerror: breakHandler(107),
        }),
        m(8, 'json:ParseJSON', { parameters: { type: '' }, mapper: { json: '{{7.data}}' } }),
        m(9, 'canvas-lms:listCourses', {
          parameters: { __IMTCONN__: '{{var.input.CanvasLMSConnection}}' },
          mapper: {},
          onerror: breakHandler(109),
        }),
        m(10, 'twilio:SendSMS', {
          parameters: { __IMTCONN__: 12 },
          mapper: { to: '{{1.`4`}}', from: '+15550100', body: 'Thanks for visiting [Business Name]! 👉 [REVIEW LINK]' },
          onerror: breakHandler(110),
        }),
      ]),
      'ARC-10',
    );
  });

  it('warns (low) for a placeholder zone alone, and adds it to the evidence of a failing template', () => {
    const zoneOnly = bp([trigger, addRow(2, 7920371, '/1Bxi')], {}, { zone: 'YOUR_MAKE_ZONE' });
    const v = violationOf(zoneOnly, 'ARC-10')!;
    assert.deepEqual(
      [v.status, v.severity, v.evidence?.pointer, v.failing_modules.length],
      ['warn', 'low', '/metadata/zone', 0],
    );
    const both = violationOf(
      bp([trigger, addRow(2, 'YOUR_CONNECTION_ID', '/1Bxi')], {}, { zone: 'YOUR_MAKE_ZONE' }),
      'ARC-10',
    )!;
    assert.deepEqual([both.status, both.severity, both.evidence?.pointer], ['fail', 'medium', '/metadata/zone']);
    passes(bp([trigger], {}, { zone: 'eu2.make.com' }), 'ARC-10');
  });
});
