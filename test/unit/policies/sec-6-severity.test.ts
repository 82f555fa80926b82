/**
 * Issue 14: SEC-6 severity from what a request to a forged address can do. High when the request
 * carries a credential, sends data, or its response drives further effects; medium for a
 * credential-less GET whose response only answers the requester (make joseph19820124, reviewer
 * verdict *overstated*) or nobody; a URL a model alone writes stays medium. Real-shaped modules
 * (mapper keys of the corpus HTTP exports), our own values; each high row has its medium look-alike.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m, type Mod } from '../../helpers/blueprints.js';
import { violationOf } from '../../helpers/policy-assert.js';

const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 2268115, maxResults: 1 } });
const sheet = m(1, 'google-sheets:watchRows', {
  version: 2,
  parameters: { __IMTCONN__: 7920371, spreadsheetId: '/1abc', sheetId: 'Leads', limit: 10 },
});
/** `http:ActionSendData` as exported, a GET to `url` unless `extra` says otherwise. */
const http = (id: number, url: string, extra: Record<string, unknown> = {}, type = 'http:ActionSendData'): Mod =>
  m(id, type, {
    version: 3,
    parameters: { handleErrors: true, useNewZLibDeCompress: true, ...(extra['parameters'] as object | undefined) },
    mapper: {
      url,
      method: 'get',
      headers: [],
      qs: [],
      data: '',
      bodyType: 'raw',
      parseResponse: false,
      serializeUrl: false,
      ...(extra['mapper'] as object | undefined),
    },
    onerror: breakHandler(id + 100),
  });
const respond = (id: number, body: string): Mod =>
  m(id, 'gateway:WebhookRespond', { mapper: { body, status: '200', headers: [] } });
const toText = (id: number, from: number): Mod =>
  m(id, 'regexp:HTMLToText', { mapper: { html: `{{${from}.data}}`, newline: 'lf', uppercaseHeadings: true } });
/** `module id:severity` of each SEC-6 finding, and their reasons. */
function sec6(flow: Mod[]): { got: string[]; reasons: string[] } {
  const v = violationOf(bp(flow), 'SEC-6');
  assert.ok(v, 'SEC-6 expected to report');
  return {
    got: v.failing_modules.map((f) => `${f.module_id}:${f.severity}`),
    reasons: v.failing_modules.map((f) => f.reason),
  };
}

describe('SEC-6 is high when a forged URL can do harm', () => {
  it('credential: a header, a keychain or a key in the query goes to the forged host (high); the same GET without one is medium', () => {
    const { got, reasons } = sec6([
      hook,
      http(2, '{{1.page}}', { mapper: { headers: [{ name: 'Authorization', value: 'Bearer {{1.session}}' }] } }),
      http(3, '{{1.page}}', { parameters: { auth: 49449 } }, 'http:ActionSendDataAPIKeyAuth'),
      http(4, 'https://{{1.tenant}}.example.com/v1/slots?api_key=AbCdEf0123456789xyz'),
      http(5, '{{1.page}}'),
    ]);
    assert.deepEqual(got, ['2:high', '3:high', '4:high', '5:medium']);
    assert.match(reasons[0]!, /carries header `Authorization`, which goes to the forged host/);
    assert.match(reasons[1]!, /carries an API-key keychain/);
    assert.match(reasons[3]!, /, but it is a GET without credentials or data whose response no module acts on/);
  });

  it('data: a POST body or personal data mapped into the request goes to the forged host (high); a GET with a non-personal query value is medium', () => {
    const { got, reasons } = sec6([
      hook,
      http(2, '{{1.callback_url}}', {
        mapper: { method: 'post', data: '{"status": "done", "order": "{{1.order}}"}', contentType: 'application/json' },
      }),
      http(3, '{{1.callback_url}}', { mapper: { qs: [{ name: 'email', value: '{{1.email}}' }] } }),
      http(4, '{{1.callback_url}}', { mapper: { qs: [{ name: 'lang', value: '{{1.lang}}' }] } }),
    ]);
    assert.deepEqual(got, ['2:high', '3:high', '4:medium']);
    assert.match(reasons[0]!, /sends a POST body to the forged host/);
    assert.match(reasons[1]!, /sends personal data \(`1\.email`\)/);
  });

  it('response: the fetched page is written to a sheet (high); fetched, summarised and only returned to the caller it is medium (make joseph19820124 shape)', () => {
    const ask = m(4, 'ai-tools:Ask', { mapper: { input: 'Summarise in 200 words:\n{{3.text}}' } });
    const row = m(5, 'google-sheets:addRow', {
      version: 2,
      parameters: { __IMTCONN__: 7 },
      mapper: { spreadsheetId: '/1abc', sheetId: 'Pages', values: { 0: '{{1.page}}', 1: '{{4.answer}}' } },
      onerror: breakHandler(105),
    });
    const written = sec6([hook, http(2, '{{1.page}}'), toText(3, 2), ask, row]);
    assert.deepEqual(written.got, ['2:high']);
    assert.match(written.reasons[0]!, /its response is written by module 5 \(`google-sheets:addRow`\)/);
    const answered = sec6([hook, http(2, '{{1.page}}'), toText(3, 2), ask, respond(6, '{{4.answer}}')]);
    assert.deepEqual(answered.got, ['2:medium']);
    assert.match(answered.reasons[0]!, /only answers the caller, through module 6 \(`gateway:WebhookRespond`\)/);
  });

  it('a URL a model alone writes stays medium even with a credential; from a model fed the payload it is high with the credential, medium without', () => {
    const gpt = (content: string) =>
      m(3, 'openai-gpt-3:CreateCompletion', {
        parameters: { __IMTCONN__: 1 },
        mapper: { select: 'chat', model: 'gpt-4o-mini', messages: [{ role: 'user', content }] },
        onerror: breakHandler(103),
      });
    const keyed = http(4, '{{3.choices[].message.content}}', {
      mapper: { headers: [{ name: 'x-api-key', value: 'YOUR_API_KEY' }] },
    });
    assert.deepEqual(sec6([sheet, gpt('The status page URL of {{1.vendor}}, URL only.'), keyed]).got, ['4:medium']);
    assert.deepEqual(
      sec6([
        hook,
        gpt('The status page URL of {{1.vendor}}, URL only.'),
        keyed,
        http(5, '{{3.choices[].message.content}}'),
      ]).got,
      ['4:high', '5:medium'],
    );
  });
});
