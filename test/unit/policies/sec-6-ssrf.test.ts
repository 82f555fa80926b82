/**
 * SEC-6 (issue 14, item 7): a request URL whose whole value or host comes from untrusted input or
 * from an AI model's output; a path or query value on a fixed host is not reported.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';
import { hostEnd, mappedUrlPart } from '../../../src/engine/policies/sec/request-url.js';

const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 2268115, maxResults: 1 } });
const sheet = m(1, 'google-sheets:watchRows', {
  version: 2,
  parameters: { __IMTCONN__: 7920371, spreadsheetId: '/1abc', sheetId: 'Leads', limit: 10 },
});
const send = (id: number, url: string, type = 'http:ActionSendData') =>
  m(id, type, {
    version: 3,
    mapper: { url, method: 'get', headers: [], qs: [], parseResponse: true },
    onerror: breakHandler(id + 100),
  });
const gpt = (id: number, content: string) =>
  m(id, 'openai-gpt-3:CreateCompletion', {
    parameters: { __IMTCONN__: 1234 },
    mapper: { select: 'chat', model: 'gpt-4o-mini', messages: [{ role: 'user', content }], max_tokens: 200 },
    onerror: breakHandler(id + 100),
  });
const severities = (blueprint: unknown) =>
  violationOf(blueprint, 'SEC-6')!.failing_modules.map((f) => `${f.module_id}:${f.severity}`);

describe('SEC-6 request URL controlled by untrusted input or AI output', () => {
  it('reports a whole URL or host from a webhook payload, also when the host is not closed by a slash (medium: credential-less GETs nobody reads)', () => {
    const viaVar = m(2, 'util:SetVariable2', {
      mapper: { name: 'target', scope: 'roundtrip', value: '{{1.callback_url}}' },
    });
    const blueprint = bp([
      hook,
      viaVar,
      send(3, '{{1.link}}'),
      send(4, 'https://{{1.host}}/x', 'http:MakeRequest'),
      send(5, '{{2.target}}/notify'),
      send(6, 'https://api.example.com{{1.suffix}}'),
    ]);
    assert.deepEqual(failingIds(blueprint, 'SEC-6'), ['3', '4', '5', '6']);
    assert.deepEqual(severities(blueprint), ['3:medium', '4:medium', '5:medium', '6:medium']);
  });

  it('reports a URL written by a model: medium on its own, high when the prompt carries untrusted input and the request carries a credential', () => {
    const parsed = m(5, 'json:ParseJSON', {
      parameters: { type: '' },
      mapper: { json: '{{3.choices[].message.content}}' },
    });
    const blueprint = bp([
      sheet,
      gpt(3, 'Find the pricing page of {{1.company}}. Answer with the URL only.'),
      send(4, '{{3.choices[].message.content}}'),
      parsed,
      send(6, '{{5.url}}'),
    ]);
    assert.deepEqual(severities(blueprint), ['4:medium', '6:medium']);
    const keyed = (id: number, url: string) =>
      m(id, 'http:ActionSendData', {
        version: 3,
        mapper: { url, method: 'get', headers: [{ name: 'Authorization', value: 'Bearer {{1.token}}' }], qs: [] },
        onerror: breakHandler(id + 100),
      });
    const steered = bp([
      hook,
      gpt(3, 'Extract the link from: {{1.body}}'),
      send(4, '{{3.choices[].message.content}}'),
      keyed(5, '{{3.choices[].message.content}}'),
    ]);
    assert.deepEqual(severities(steered), ['4:medium', '5:high']);
  });

  it('points at the url field, in mapper or parameters', () => {
    const inParams = m(3, 'http:ActionGetFile', {
      version: 3,
      parameters: { url: '{{1.file_url}}' },
      mapper: { method: 'get' },
      onerror: breakHandler(103),
    });
    const v = violationOf(bp([hook, inParams]), 'SEC-6')!;
    assert.equal(v.failing_modules[0]!.evidence?.pointer, '/flow/1/parameters/url');
  });

  it('passes a fixed host with a mapped path id or query value, a trusted source, and a provider-issued file URL', () => {
    passes(
      bp([
        hook,
        send(2, 'https://api.example.com/v1/items/{{1.id}}'),
        send(3, 'https://api.example.com/search?q={{1.q}}'),
        send(4, 'https://api.example.com#{{1.anchor}}'),
      ]),
      'SEC-6',
    );
    passes(bp([sheet, send(2, '{{1.link}}')]), 'SEC-6');
    const image = m(3, 'openai-gpt-3:GenerateImage', {
      parameters: { __IMTCONN__: 1234 },
      mapper: { prompt: 'A logo for {{1.company}}', n: 1 },
      onerror: breakHandler(103),
    });
    passes(bp([sheet, image, send(4, '{{3.data[].url}}', 'http:ActionGetFile')]), 'SEC-6');
  });
});

describe('SEC-6 URL template parts', () => {
  it('finds where the host is fixed', () => {
    assert.equal(hostEnd('https://api.example.com/v1/{{1.id}}'), 'https://api.example.com'.length);
    assert.equal(hostEnd('https://{{1.host}}/x'), 'https://{{1.host}}'.length);
    assert.equal(hostEnd('{{1.base}}/v1'), '{{1.base}}'.length);
    assert.equal(hostEnd('https://api.example.com{{1.s}}'), 'https://api.example.com{{1.s}}'.length);
  });
  it('names the part a mapping chooses', () => {
    assert.equal(mappedUrlPart('{{1.link}}'), 'whole URL');
    assert.equal(mappedUrlPart(' {{1.link}}'), 'whole URL');
    assert.equal(mappedUrlPart('https://{{1.sub}}.example.com/x'), 'host');
    assert.equal(mappedUrlPart('https://api.example.com/{{1.id}}'), null);
    assert.equal(mappedUrlPart('https://api.example.com?x={{1.id}}'), null);
    assert.equal(mappedUrlPart('https://api.example.com/fixed'), null);
  });
});
